import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Testing

/// Fixtures from Tests/Fixtures/make_lookup_fixtures.py: patterns tagged with lookup-table
/// profiles written from made-up models, and littleCMS's perceptual conversions to sRGB.
@Suite("Decoding converts lookup-table profiles (CMYK, and RGB or grey without a matrix) to sRGB")
struct LookupProfileDecodingTests {
    private let registry = Registry.standard

    private func decode(_ name: String, _ options: DecodeOptions = DecodeOptions()) throws -> Image {
        try registry.decode(Fixtures.bytes(name), options: options)
    }

    @Test(
        "CMYK JPEGs match littleCMS within one level, Adobe-inverted or not",
        arguments: ["lut-cmyk-mft2", "lut-cmyk-mab", "lut-cmyk-plain"])
    func cmykJPEG(_ name: String) throws {
        let converted = try decode("\(name).jpg")
        let reference = try decode("\(name)-expected.png")
        #expect(converted.size == PixelSize(width: 32, height: 24) && !converted.hasAlpha)
        #expect(ImageComparison.maxAbsoluteError(converted, reference) <= 1)
        // Without the profile, the plain formula is far from it.
        let formula = try decode("\(name).jpg", DecodeOptions(colorProfiles: .ignore))
        #expect(ImageComparison.meanAbsoluteError(formula, reference) > 4)
    }

    @Test("A grey PNG with only lookup tables matches littleCMS within one level")
    func greyPNG() throws {
        let converted = try decode("lut-gray-mft2.png")
        #expect(ImageComparison.maxAbsoluteError(converted, try decode("lut-gray-mft2-expected.png")) <= 1)
    }

    @Test("An RGB PNG with only lookup tables matches littleCMS but at the sRGB gamut's edge")
    func rgbPNG() throws {
        let converted = try decode("lut-rgb-mft1.png")
        let reference = try decode("lut-rgb-mft1-expected.png")
        // Colours Adobe RGB has and sRGB lacks are clipped; littleCMS interpolates between
        // clipped and unclipped nodes there, so a channel near 0 may differ by a few levels.
        #expect(ImageComparison.maxAbsoluteError(converted, reference) <= 6)
        var within1 = 0
        for y in 0..<reference.height {
            for x in 0..<reference.width {
                let a = converted.pixel(x: x, y: y), b = reference.pixel(x: x, y: y)
                if abs(Int(a.r) - Int(b.r)) <= 1, abs(Int(a.g) - Int(b.g)) <= 1, abs(Int(a.b) - Int(b.b)) <= 1 { within1 += 1 }
            }
        }
        #expect(within1 * 100 >= reference.width * reference.height * 95)
        #expect(ImageComparison.meanAbsoluteError(try decode("lut-rgb-mft1.png", DecodeOptions(colorProfiles: .ignore)), reference) > 2)
    }

    @Test(
        "A profile for other channels is ignored: RGB tagged CMYK, CMYK tagged RGB",
        arguments: ["lut-rgb-cmyk-tagged.jpg", "lut-cmyk-rgb-tagged.jpg"])
    func mismatchedProfile(_ name: String) throws {
        #expect(try decode(name) == decode(name, DecodeOptions(colorProfiles: .ignore)))
    }

    @Test("A CMYK JPEG decoded smaller (shrink-on-load) is converted too")
    func shrunk() throws {
        let hint = DecodeOptions(sizeHint: PixelSize(width: 8, height: 6))
        let small = try decode("lut-cmyk-mft2.jpg", hint)
        #expect(small.size == PixelSize(width: 8, height: 6))
        // libjpeg's 1/4 scale is close to 4×4 block means of the full-size reference.
        let reference = try decode("lut-cmyk-mft2-expected.png")
        var means = [UInt8]()
        for y in 0..<6 {
            for x in 0..<8 {
                var sums = [0, 0, 0]
                for dy in 0..<4 {
                    for dx in 0..<4 {
                        let p = reference.pixel(x: 4 * x + dx, y: 4 * y + dy)
                        sums[0] += Int(p.r); sums[1] += Int(p.g); sums[2] += Int(p.b)
                    }
                }
                means += sums.map { UInt8(($0 + 8) / 16) } + [255]
            }
        }
        let expected = try Image(width: 8, height: 6, pixels: means)
        #expect(ImageComparison.meanAbsoluteError(small, expected) < 4)
        #expect(ImageComparison.meanAbsoluteError(try decode("lut-cmyk-mft2.jpg", DecodeOptions(sizeHint: hint.sizeHint, colorProfiles: .ignore)), expected) > 8)
    }
}
