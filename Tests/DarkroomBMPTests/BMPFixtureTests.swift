import DarkroomBMP
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Files written by ImageMagick and Pillow

/// The committed fixtures of this target (`Fixtures/make_fixtures.sh`).
enum BMPFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func bytes(_ name: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
            fatalError("missing fixture \(name) in \(directory.path)")
        }
        return [UInt8](data)
    }

    static let names = [
        "imagemagick-v5-rgba.bmp", "imagemagick-rgb565.bmp", "imagemagick-rgb555.bmp", "imagemagick-argb4444.bmp",
        "imagemagick-rle8.bmp", "imagemagick-os2-rgb24.bmp", "pillow-rgba32.bmp", "pillow-rgb24.bmp",
    ]

    /// The fixtures' formula: `R = 36x, G = 60y, B = 255 − 20(x+y)`, `A = min(255, 20(x + 2y))`.
    static func pattern(alpha: Bool) -> Image {
        image(width: 7, height: 5, hasAlpha: alpha) { x, y in
            RGBA(
                r: UInt8(36 * x), g: UInt8(60 * y), b: UInt8(255 - 20 * (x + y)),
                a: alpha ? UInt8(min(255, 20 * (x + 2 * y))) : 255)
        }
    }

    /// `pattern` with each channel through `bits` bits and back: ImageMagick stores
    /// `floor(v · max / 255)` (it truncates), and the decoder scales with rounding.
    static func quantised(_ image: Image, bits: [Int]) -> Image {
        let pixels = image.pixels.enumerated().map { index, value -> UInt8 in
            let maximum = (1 << bits[index % 4]) - 1
            let stored = Int(value) * maximum / 255
            return UInt8((stored * 255 + maximum / 2) / maximum)
        }
        return try! Image(width: image.width, height: image.height, pixels: pixels, hasAlpha: image.hasAlpha)
    }
}

@Suite("BMPs written by ImageMagick and Pillow decode to the formula they were made from")
struct BMPFixtureTests {
    @Test("ImageMagick's V5 BI_BITFIELDS file keeps all 8 bits of alpha")
    func imageMagickV5() throws {
        let image = try decodeBMP(BMPFixtures.bytes("imagemagick-v5-rgba.bmp"))
        #expect(image == BMPFixtures.pattern(alpha: true))
    }

    @Test("Pillow's 32-bit BI_RGB file takes its fourth byte as alpha")
    func pillowRGBA() throws {
        let image = try decodeBMP(BMPFixtures.bytes("pillow-rgba32.bmp"))
        #expect(image == BMPFixtures.pattern(alpha: true))
    }

    @Test("24-bit files from Pillow and ImageMagick's OS/2 1.x writer are exact and opaque",
          arguments: ["pillow-rgb24.bmp", "imagemagick-os2-rgb24.bmp"])
    func trueColour(name: String) throws {
        let image = try decodeBMP(BMPFixtures.bytes(name))
        #expect(image == BMPFixtures.pattern(alpha: false))
    }

    @Test("ImageMagick's RGB565 and RGB555 files scale each channel's maximum to 255",
          arguments: [("imagemagick-rgb565.bmp", [5, 6, 5, 8]), ("imagemagick-rgb555.bmp", [5, 5, 5, 8])])
    func sixteenBit(name: String, bits: [Int]) throws {
        let image = try decodeBMP(BMPFixtures.bytes(name))
        #expect(image == BMPFixtures.quantised(BMPFixtures.pattern(alpha: false), bits: bits))
        #expect(image.hasAlpha == false)
    }

    @Test("ImageMagick's ARGB4444 file has 4-bit alpha scaled to 8 bits")
    func argb4444() throws {
        let image = try decodeBMP(BMPFixtures.bytes("imagemagick-argb4444.bmp"))
        #expect(image == BMPFixtures.quantised(BMPFixtures.pattern(alpha: true), bits: [4, 4, 4, 4]))
    }

    @Test("ImageMagick's RLE8 file covers every pixel, so it is exact and opaque")
    func rle8() throws {
        let image = try decodeBMP(BMPFixtures.bytes("imagemagick-rle8.bmp"))
        #expect(image == BMPFixtures.pattern(alpha: false))
    }

    @Test("the shared gradient.bmp fixture (written by ImageMagick) decodes exactly")
    func sharedGradient() throws {
        let image = try decodeBMP(Fixtures.bytes("gradient.bmp"))
        #expect(image == Pattern.gradient())
    }

    @Test("only BMP headers are accepted, and size hints are ignored")
    func canDecode() {
        let decoder = BMPDecoder()
        let header = ImageHeader(format: .bmp, width: 7, height: 5)
        #expect(decoder.name == "darkroom-bmp")
        #expect(decoder.canDecode(header, options: DecodeOptions()))
        #expect(!decoder.canDecode(ImageHeader(format: .png, width: 7, height: 5), options: DecodeOptions()))
        let hinted = DecodeOptions(sizeHint: PixelSize(width: 2, height: 2))
        #expect(decoder.canonicalSizeHint(for: header, options: hinted) == nil)
    }
}

// MARK: - Embedded colour profiles

@Suite("A BITMAPV5HEADER's embedded ICC profile converts the pixels to sRGB, as in every other format")
struct BMPEmbeddedProfileTests {
    /// A grey ICC v2 profile whose only tag is a gamma-3 kTRC.
    static let greyProfile: [UInt8] = {
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        let curve = Array("curv".utf8) + [0, 0, 0, 0] + u32(1) + [3, 0, 0, 0]  // u8Fixed8 3.0, padded
        let table = u32(1) + Array("kTRC".utf8) + u32(144) + u32(14)
        var header = u32(144 + curve.count) + Array("none".utf8) + u32(0x0210_0000) + Array("mntrGRAYXYZ ".utf8)
        header += [UInt8](repeating: 0, count: 12) + Array("acsp".utf8)
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return header + table + curve
    }()

    /// A 2×1 grey 24-bit V5 file, with the profile embedded after the pixels when `embedded`.
    static func file(embedded: Bool) -> [UInt8] {
        var bytes = BMPWriter(header: .v5, width: 2, height: 1, bitCount: 24, pixels: BMPWriter.rows([[128, 128, 128, 60, 60, 60]])).bytes()
        guard embedded else { return bytes }
        let profileOffset = bytes.count - 14  // from the start of the DIB header
        bytes.replaceSubrange(14 + 56 ..< 14 + 60, with: BMPWriter.le32(0x4D42_4544))  // 'MBED'
        bytes.replaceSubrange(14 + 112 ..< 14 + 116, with: BMPWriter.le32(profileOffset))
        bytes.replaceSubrange(14 + 116 ..< 14 + 120, with: BMPWriter.le32(greyProfile.count))
        return bytes + greyProfile
    }

    @Test("the embedded profile is applied; a file without one, or with colour profiles ignored, is as stored")
    func applied() throws {
        func decode(_ bytes: [UInt8], _ options: DecodeOptions = DecodeOptions()) throws -> Image {
            try BMPDecoder().decode(bytes, header: ImageProbe.probe(bytes), options: options)
        }
        let plain = try decode(Self.file(embedded: false))
        let withProfile = try decode(Self.file(embedded: true))
        #expect(withProfile != plain)
        #expect(withProfile == DecodeOptions().convertToSRGB(plain, iccProfile: Self.greyProfile))
        let ignored = try decode(Self.file(embedded: true), DecodeOptions(colorProfiles: .ignore))
        #expect(ignored == plain)
    }
}
