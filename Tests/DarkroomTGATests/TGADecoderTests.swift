import Darkroom
import DarkroomCore
import DarkroomTGA
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - TGA decoding

/// ImageMagick's `convert`, when installed (CI has it).
private let convert = "/usr/bin/convert"
private let hasConvert = FileManager.default.isExecutableFile(atPath: convert)

@Suite("TGA: every type, depth, origin and alpha rule, decoded in Swift")
struct TGADecoderTests {
    func decode(_ bytes: [UInt8]) throws -> Image {
        try TGADecoder().decode(bytes, header: ImageProbe.probe(bytes), options: DecodeOptions())
    }

    @Test(
        "files ImageMagick writes decode to the pixels ImageMagick reads from them",
        .enabled(if: hasConvert, "ImageMagick's \(convert) is not installed"),
        arguments: [
            "", "-compress RLE", "-type Grayscale", "-type Grayscale -compress RLE", "-type Palette",
            "-type Palette -compress RLE", "-alpha off", "-alpha off -compress RLE", "-orient TopLeft",
            "-orient BottomRight", "-orient TopRight", "-orient BottomLeft -compress RLE",
        ])
    func matchesImageMagick(options: String) async throws {
        let folder = try TemporaryDirectory()
        let source = folder.path("source.png"), tga = folder.path("image.tga"), reference = folder.path("reference.png")
        var (status, printed) = try await ChildProcess.run(
            convert, [Fixtures.path("gradient-rgba.png"), "-resize", "37x23!", source])
        #expect(status == 0, "\(printed)")
        (status, printed) = try await ChildProcess.run(convert, [source] + options.split(separator: " ").map(String.init) + [tga])
        #expect(status == 0, "\(printed)")
        (status, printed) = try await ChildProcess.run(convert, [tga, "-auto-orient", "PNG32:" + reference])
        #expect(status == 0, "\(printed)")
        let bytes = try FileBytes.read(tga)
        #expect(try ImageProbe.probe(bytes).format == .tga)
        let ours = try decode(bytes)
        let theirs = try Registry.standard.decode(FileBytes.read(reference))
        #expect(ours.size == theirs.size)
        #expect(ImageComparison.maxAbsoluteError(ours, theirs) == 0, "\(options)")
    }

    @Test("16-bit colour: 5 bits a channel scaled with rounding, the top bit alpha when the descriptor counts one")
    func sixteenBit() throws {
        var file = TGAFileBuilder(imageType: 2, width: 2, height: 1, depth: 16, descriptor: 0x21)
        file.values = [rgb555(31, 0, 16, alpha: true), rgb555(0, 31, 1, alpha: false)]
        let image = try decode(file.bytes())
        #expect(image.pixel(x: 0, y: 0) == RGBA(r: 255, g: 0, b: 132, a: 255))
        #expect(image.pixel(x: 1, y: 0) == RGBA(r: 0, g: 255, b: 8, a: 0))
        #expect(image.hasAlpha)
        file.descriptor = 0x20  // no alpha bits: the top bit is ignored
        #expect(try !decode(file.bytes()).hasAlpha)
        file.depth = 15
        #expect(try decode(file.bytes()).pixel(x: 1, y: 0) == RGBA(r: 0, g: 255, b: 8))
    }

    @Test("grey with alpha, 16 bits a pixel, run-length encoded across rows")
    func greyAlpha() throws {
        var file = TGAFileBuilder(imageType: 11, width: 2, height: 2, depth: 16, descriptor: 0x28)
        file.packets = [[0x82, 200, 128], [0x00, 50, 255]]  // three of (200, a 128), then one raw (50, a 255)
        let image = try decode(file.bytes())
        #expect(image.pixel(x: 0, y: 0) == RGBA(r: 200, g: 200, b: 200, a: 128))
        #expect(image.pixel(x: 0, y: 1) == RGBA(r: 200, g: 200, b: 200, a: 128))
        #expect(image.pixel(x: 1, y: 1) == RGBA(r: 50, g: 50, b: 50, a: 255))
    }

    @Test("16-bit indices into a map that starts at index 256; an index outside it names the pixel")
    func colourMap() throws {
        var file = TGAFileBuilder(imageType: 1, width: 2, height: 1, depth: 16)
        file.map = (first: 256, entryBits: 24, entries: [[0, 0, 255], [255, 0, 0]])
        file.values = [[0x01, 0x01], [0x00, 0x01]]  // 257, 256
        let image = try decode(file.bytes())
        #expect(image.pixel(x: 0, y: 0) == RGBA(r: 0, g: 0, b: 255))
        #expect(image.pixel(x: 1, y: 0) == RGBA(r: 255, g: 0, b: 0))
        file.values = [[0x01, 0x01], [0x05, 0x00]]
        #expect(throws: DarkroomError.corrupt(.tga, detail: "pixel 1,0 uses colour 5, outside the map's 256…257")) {
            try decode(file.bytes())
        }
    }

    @Test("the extension area's attributes type decides: 0 ignores alpha, 3 keeps it, 4 undoes premultiplication")
    func extensionArea() throws {
        var file = TGAFileBuilder(imageType: 2, width: 1, height: 1, depth: 32, descriptor: 0x28)
        file.values = [[40, 60, 100, 128]]  // B, G, R, A
        #expect(try decode(file.bytes()).pixel(x: 0, y: 0) == RGBA(r: 100, g: 60, b: 40, a: 128))
        file.attributesType = 0
        #expect(try decode(file.bytes()).pixel(x: 0, y: 0) == RGBA(r: 100, g: 60, b: 40, a: 255))
        file.attributesType = 3
        #expect(try decode(file.bytes()).pixel(x: 0, y: 0) == RGBA(r: 100, g: 60, b: 40, a: 128))
        file.attributesType = 4
        #expect(try decode(file.bytes()).pixel(x: 0, y: 0) == RGBA(r: 199, g: 120, b: 80, a: 128))
    }

    @Test("a 32-bit file whose fourth bytes are all zero is opaque")
    func zeroAlphaIsOpaque() throws {
        var file = TGAFileBuilder(imageType: 2, width: 2, height: 1, depth: 32, descriptor: 0x20)
        file.values = [[1, 2, 3, 0], [4, 5, 6, 0]]
        let image = try decode(file.bytes())
        #expect(!image.hasAlpha)
        #expect(image.pixel(x: 1, y: 0) == RGBA(r: 6, g: 5, b: 4))
    }

    @Test("bottom-up rows and right-to-left columns land where they belong")
    func origins() throws {
        var file = TGAFileBuilder(imageType: 3, width: 2, height: 2, depth: 8, descriptor: 0x10)  // bottom-right
        file.values = [[1], [2], [3], [4]]
        let image = try decode(file.bytes())
        #expect([image.pixel(x: 0, y: 0).r, image.pixel(x: 1, y: 0).r, image.pixel(x: 0, y: 1).r, image.pixel(x: 1, y: 1).r] == [4, 3, 2, 1])
    }

    @Test("cut-short and impossible files are refused by name")
    func damage() throws {
        var raw = TGAFileBuilder(imageType: 2, width: 4, height: 4, depth: 24)
        raw.values = Array(repeating: [1, 2, 3], count: 15)
        #expect(throws: DarkroomError.truncated(.tga, detail: "the pixel data needs 48 bytes, the file has 45")) {
            try decode(raw.bytes())
        }
        var runs = TGAFileBuilder(imageType: 10, width: 4, height: 4, depth: 24)
        runs.packets = [[0x84, 1, 2, 3]]
        #expect(throws: DarkroomError.truncated(.tga, detail: "the run-length data ends after 5 of 16 pixels")) {
            try decode(runs.bytes())
        }
        var depth = TGAFileBuilder(imageType: 3, width: 1, height: 1, depth: 8)
        depth.values = [[0]]
        var bytes = depth.bytes()
        bytes[16] = 24  // a 24-bit grey image: the probe no longer calls it TGA, the decoder names the depth
        #expect(throws: DarkroomError.self) {
            try TGADecoder().decode(bytes, header: ImageHeader(format: .tga, width: 1, height: 1), options: DecodeOptions())
        }
    }

    @Test("at fail-on = none a cut file keeps the pixels it holds, the rest transparent, with a warning")
    func damageLetThrough() throws {
        let log = DecodeWarningLog()
        let lenient = DecodeOptions(failOn: .none, warnings: log.handler)
        var raw = TGAFileBuilder(imageType: 2, width: 4, height: 4, depth: 24)
        raw.values = Array(repeating: [1, 2, 3], count: 15)
        let cutRaw = try TGADecoder().decode(raw.bytes(), header: ImageProbe.probe(raw.bytes()), options: lenient)
        #expect(cutRaw.hasAlpha)
        #expect(cutRaw.pixel(x: 2, y: 3) == RGBA(r: 3, g: 2, b: 1, a: 255))
        #expect(cutRaw.pixel(x: 3, y: 3) == RGBA(r: 0, g: 0, b: 0, a: 0))
        var runs = TGAFileBuilder(imageType: 10, width: 4, height: 4, depth: 24)
        runs.packets = [[0x84, 1, 2, 3]]
        let cutRuns = try TGADecoder().decode(runs.bytes(), header: ImageProbe.probe(runs.bytes()), options: lenient)
        #expect(cutRuns.pixel(x: 0, y: 1) == RGBA(r: 3, g: 2, b: 1, a: 255))
        #expect(cutRuns.pixel(x: 1, y: 1) == RGBA(r: 0, g: 0, b: 0, a: 0))
        #expect(log.warnings == [
            DecodeWarning(format: .tga, damage: .truncated, detail: "the pixel data needs 48 bytes, the file has 45"),
            DecodeWarning(format: .tga, damage: .truncated, detail: "the run-length data ends after 5 of 16 pixels"),
        ])
    }

    @Test("a 65535×65535 header is refused by the pixel limit before any allocation")
    func limits() throws {
        var file = TGAFileBuilder(imageType: 10, width: 65535, height: 65535, depth: 24)
        file.packets = [[0xFF, 0, 0, 0]]
        #expect(throws: DarkroomError.self) { try decode(file.bytes()) }
    }

    @Test("the standard registry decodes TGA with darkroom-tga")
    func registry() throws {
        let bytes = Fixtures.bytes("gradient-rgba.tga")
        #expect(try Registry.standard.decoder(for: ImageProbe.probe(bytes), options: DecodeOptions()).name == "darkroom-tga")
        #expect(try Registry.standard.decode(bytes).hasAlpha)
    }
}
