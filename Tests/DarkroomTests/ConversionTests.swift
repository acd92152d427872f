import Darkroom
import DarkroomTools
import DarkroomCore
import DarkroomTestSupport
import Testing
import DarkroomSources

// MARK: - Conversion

@Suite("Conversion fits with shrink-on-load and writes atomically")
struct ConversionTests {
    /// A 1600×1200 photo-like JPEG made with the registry's own encoder.
    static let largeJPEG: [UInt8] = {
        let image = Pattern.photo(width: 1600, height: 1200)
        return try! Registry.standard.encode(image, options: EncodeOptions(format: .jpeg, quality: 90))
    }()

    @Test(
        "the decoder shrinks on load to the smallest DCT scale leaving the resampler at least 1.75×",
        arguments: [
            (PixelSize(width: 100, height: 100), PixelSize(width: 200, height: 150), PixelSize(width: 100, height: 75)),
            (PixelSize(width: 200, height: 200), PixelSize(width: 400, height: 300), PixelSize(width: 200, height: 150)),
            (PixelSize(width: 300, height: 300), PixelSize(width: 800, height: 600), PixelSize(width: 300, height: 225)),
            (PixelSize(width: 700, height: 700), PixelSize(width: 1600, height: 1200), PixelSize(width: 700, height: 525)),
            (PixelSize(width: 5000, height: 5000), PixelSize(width: 1600, height: 1200), PixelSize(width: 1600, height: 1200)),
        ])
    func shrinkOnLoad(box: PixelSize, decoded: PixelSize, output: PixelSize) throws {
        var conversion = Conversion(input: "-", output: "out.jpg")
        conversion.maxSize = box
        let result = try conversion.convert(Self.largeJPEG, options: EncodeOptions(format: .png), registry: .standard)
        #expect(result.decodedSize == decoded)
        #expect(result.outputSize == output)
        #expect(try ImageProbe.probe(result.bytes).size == output)
    }

    @Test("with shrink-on-load off the full image is decoded, and both results look alike")
    func shrinkOnLoadOff() throws {
        var conversion = Conversion(input: "-", output: "out.png")
        conversion.maxSize = PixelSize(width: 300, height: 300)
        let fast = try conversion.convert(Self.largeJPEG, options: EncodeOptions(format: .png), registry: .standard)
        conversion.shrinkOnLoad = false
        let full = try conversion.convert(Self.largeJPEG, options: EncodeOptions(format: .png), registry: .standard)
        #expect(full.decodedSize == PixelSize(width: 1600, height: 1200))
        let a = try Registry.standard.decode(fast.bytes), b = try Registry.standard.decode(full.bytes)
        #expect(ImageComparison.psnr(a, b) > 35)
    }

    @Test("an AVIF/HEIF whose 'ispe' lies (8×8 or 640×480) comes out as the picture it holds, with and without --max-size",
          arguments: ["gradient.avif", "gradient.heic"], [8, 640])
    func lyingExtent(name: String, lyingSide side: Int) throws {
        var bytes = Fixtures.bytes(name)
        let tag = Array("ispe".utf8)
        for i in 0..<(bytes.count - 16) where Array(bytes[i..<i + 4]) == tag {
            for k in 0..<2 {
                let value = k == 0 ? side : side * 3 / 4
                for b in 0..<4 { bytes[i + 8 + 4 * k + b] = UInt8(truncatingIfNeeded: value >> (24 - 8 * b)) }
            }
        }
        var conversion = Conversion(input: "-", output: "out.png")
        let whole = try conversion.convert(bytes, options: EncodeOptions(format: .png), registry: .standard)
        // libheif decodes the frame the stream holds; libavif sizes its output by 'ispe'.
        if name.hasSuffix(".heic") { #expect(whole.outputSize == PixelSize(width: 64, height: 48)) }
        for side in [256, 32] {
            let box = PixelSize(width: side, height: side)
            conversion.maxSize = box
            let fitted = try conversion.convert(bytes, options: EncodeOptions(format: .png), registry: .standard)
            #expect(fitted.outputSize == whole.outputSize.fitting(within: box, allowUpscaling: false), "\(name) in \(box)")
        }
    }

    @Test("a file conversion writes the output and nothing else")
    func writesFile() throws {
        let folder = try TemporaryDirectory()
        var conversion = Conversion(input: Fixtures.path("gradient-rgba.png"), output: folder.path("nested/out.webp"))
        conversion.lossless = true
        let result = try conversion.run(using: .standard)
        #expect(result.outputFormat == .webp)
        let decoded = try Registry.standard.decode(FileBytes.read(folder.path("nested/out.webp")))
        #expect(ImageComparison.maxAbsoluteError(decoded, Pattern.gradient(alpha: true)) == 0)
    }
}
