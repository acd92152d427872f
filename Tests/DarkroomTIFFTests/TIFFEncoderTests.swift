import Darkroom
import DarkroomCore
import DarkroomTestSupport
import DarkroomTIFF
import Foundation
import Testing

// MARK: - Writing TIFF

@Suite("TIFF output through libtiff: lossless, 8-bit straight alpha, read back the same by libtiff and ImageMagick")
struct TIFFEncoderTests {
    /// 256×16: the test photo's colours with every alpha level across each row (x is the alpha).
    /// (Large enough for ImageMagick, which refuses a TIFF smaller than one uncompressed row.)
    private let translucent: Image = {
        let photo = Pattern.photo(width: 256, height: 16)
        var pixels = photo.pixels
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = UInt8((i / 4) % 256) }
        return try! Image(width: 256, height: 16, pixels: pixels, hasAlpha: true)
    }()

    @Test("RGBA with every alpha level round-trips exactly, tagged as unassociated alpha")
    func alphaRoundTrip() throws {
        let file = try TIFFEncoder().encode(translucent, options: EncodeOptions(format: .tiff))
        #expect(TIFFLayout(file)?.samplesPerPixel == 4 && TIFFLayout(file)?.extraSample == 2)
        #expect(try decodeTIFF(file, options: DecodeOptions(colorProfiles: .ignore)) == translucent)
    }

    @Test("an opaque image is written as RGB and round-trips exactly")
    func opaqueRoundTrip() throws {
        let picture = Pattern.photo(width: 97, height: 41)
        let file = try TIFFEncoder().encode(picture, options: EncodeOptions(format: .tiff))
        #expect(TIFFLayout(file)?.samplesPerPixel == 3 && TIFFLayout(file)?.extraSample == nil)
        #expect(try decodeTIFF(file) == picture)
    }

    @Test("an image taller than one strip is written in several and comes back whole")
    func severalStrips() throws {
        let picture = Pattern.photo(width: 300, height: 400)  // 1,200 bytes a row: 54 rows a strip
        #expect(try decodeTIFF(TIFFEncoder().encode(picture, options: EncodeOptions(format: .tiff))) == picture)
    }

    @Test("a flat strip of an image that would deflate to less than one row is written uncompressed, which ImageMagick reads")
    func flatStrip() async throws {
        let flat = try Image(width: 1024, height: 2, pixels: Array([[UInt8]](repeating: [90, 90, 90, 255], count: 1024 * 2).joined()), hasAlpha: false)
        let file = try TIFFEncoder().encode(flat, options: EncodeOptions(format: .tiff))
        #expect(file.count >= 1024 * 3)
        #expect(try decodeTIFF(file) == flat)
        let folder = try TemporaryDirectory()
        try Data(file).write(to: URL(fileURLWithPath: folder.path("flat.tif")))
        let read = try await ChildProcess.run("/usr/bin/convert", [folder.path("flat.tif"), "PNG24:" + folder.path("flat.png")])
        #expect(read.status == 0, "\(read.output)")
    }

    @Test("the standard registry writes TIFF with libtiff")
    func standardWiring() throws {
        #expect(try Registry.standard.encoder(for: .tiff).name == "libtiff")
    }

    @Test("ImageMagick reads the file to the same pixels, alpha included")
    func imageMagickReadsIt() async throws {
        let convert = "/usr/bin/convert"
        guard FileManager.default.isExecutableFile(atPath: convert) else {
            Issue.record("ImageMagick's /usr/bin/convert is not installed (CI installs imagemagick)")
            return
        }
        let folder = try TemporaryDirectory()
        try Data(TIFFEncoder().encode(translucent, options: EncodeOptions(format: .tiff))).write(to: URL(fileURLWithPath: folder.path("ours.tif")))
        let read = try await ChildProcess.run(convert, [folder.path("ours.tif"), "-depth", "8", "PNG32:" + folder.path("back.png")])
        #expect(read.status == 0, "\(read.output)")
        let back = try Registry.standard.decode(FileBytes.read(folder.path("back.png")), options: DecodeOptions(colorProfiles: .ignore))
        // Fully transparent pixels' colours are not kept by every reader; compare the rest.
        for y in 0..<16 {
            #expect((1..<256).allSatisfy { back.pixel(x: $0, y: y) == translucent.pixel(x: $0, y: y) }, "row \(y)")
        }
    }
}
