import DarkroomCore
import DarkroomTestSupport
import DarkroomWebP
import Testing

// MARK: - Fixtures

@Suite("libwebp decodes the WebP fixtures to their formulas")
struct WebPFixtureDecodingTests {
    @Test("a lossless file with alpha decodes exactly")
    func lossless() throws {
        let image = try decodeWebP(Fixtures.bytes("gradient-lossless.webp"))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient(alpha: true)) == 0)
        #expect(image.hasAlpha)
    }

    @Test("a lossy quality-95 file decodes close to the pattern and opaque")
    func lossy() throws {
        let image = try decodeWebP(Fixtures.bytes("gradient-lossy.webp"))
        let reference = Pattern.gradient()
        // Measured with libwebp 1.2.4: MAE 0.80, PSNR 45.1 dB (4:2:0 chroma, q95).
        #expect(ImageComparison.meanAbsoluteError(image, reference) < 1.0)
        #expect(ImageComparison.psnr(image, reference) > 44)
        #expect(image.hasAlpha == false)
        #expect(alphaChannel(image).allSatisfy { $0 == 255 })
    }

    @Test("only WebP headers are accepted")
    func canDecode() {
        let decoder = WebPDecoder()
        #expect(decoder.name == "libwebp")
        #expect(decoder.canDecode(ImageHeader(format: .webp, width: 1, height: 1), options: DecodeOptions()))
        #expect(!decoder.canDecode(ImageHeader(format: .png, width: 1, height: 1), options: DecodeOptions()))
    }
}

// MARK: - Extended files

@Suite("Extended WebP files: EXIF orientation and the first frame of animations")
struct WebPExtendedFileTests {
    @Test("the EXIF orientation is applied, or left alone when asked")
    func orientation() throws {
        let stored = Pattern.gradient(alpha: true, width: 48, height: 64)
        let image = WebPContainer.imageChunk(ofSimpleFile: try encodeWebP(stored, lossless: true))
        let file = WebPContainer.file(
            canvasWidth: 48, canvasHeight: 64, flags: WebPContainer.exifFlag | WebPContainer.alphaFlag,
            chunks: [image, WebPContainer.exif(orientation: .right)])
        #expect(try ImageProbe.probe(file).orientation == .right)

        let upright = try decodeWebP(file)
        #expect(upright.size == PixelSize(width: 64, height: 48))
        #expect(upright == stored.applying(.right))
        #expect(try decodeWebP(file, options: DecodeOptions(appliesOrientation: false)) == stored)
    }

    @Test("an animated WebP decodes every frame, the first on the transparent canvas")
    func animationFirstFrame() throws {
        let first = Pattern.gradient(alpha: false, width: 16, height: 12)
        let second = Image(width: 40, height: 30, hasAlpha: false) { $0.initialize(repeating: 200) }
        let file = WebPContainer.file(
            canvasWidth: 40, canvasHeight: 30, flags: WebPContainer.animationFlag | WebPContainer.alphaFlag,
            chunks: [
                WebPContainer.animationHeader(),
                WebPContainer.frame(
                    x: 8, y: 6, width: 16, height: 12,
                    imageChunk: WebPContainer.imageChunk(ofSimpleFile: try encodeWebP(first, lossless: true))),
                WebPContainer.frame(
                    x: 0, y: 0, width: 40, height: 30,
                    imageChunk: WebPContainer.imageChunk(ofSimpleFile: try encodeWebP(second, lossless: true))),
            ])
        let header = try ImageProbe.probe(file)
        #expect(header.frameCount == 2)  // the probe counts the ANMF chunks

        let image = try WebPDecoder().decode(file, header: header, options: DecodeOptions())
        #expect(image.size == PixelSize(width: 40, height: 30))
        #expect(image.hasAlpha)  // the canvas around the frame is transparent
        #expect(image.animation?.frameCount == 2)
        for y in 0..<30 {
            for x in 0..<40 {
                let inside = (8..<24).contains(x) && (6..<18).contains(y)
                let expected = inside ? first.pixel(x: x - 8, y: y - 6) : RGBA(r: 0, g: 0, b: 0, a: 0)
                #expect(image.pixel(x: x, y: y) == expected, "pixel (\(x), \(y))")
            }
        }
    }

    @Test("a truncated animation is an error")
    func truncatedAnimation() throws {
        let frame = WebPContainer.imageChunk(ofSimpleFile: try encodeWebP(Pattern.photo(width: 32, height: 32)))
        let file = WebPContainer.file(
            canvasWidth: 32, canvasHeight: 32, flags: WebPContainer.animationFlag,
            chunks: [WebPContainer.animationHeader(), WebPContainer.frame(x: 0, y: 0, width: 32, height: 32, imageChunk: frame)])
        #expect(try decodeWebP(file).size == PixelSize(width: 32, height: 32))
        let cut = Array(file[..<(file.count - 20)])
        #expect(throws: DarkroomError.self) { try decodeWebP(cut) }
    }
}
