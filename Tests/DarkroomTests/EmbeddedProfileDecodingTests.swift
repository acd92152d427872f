import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Testing

/// Fixtures from Tests/Fixtures/make_icc_fixtures.py: the same pattern tagged with profiles
/// written from published primaries, and littleCMS's conversions of it to sRGB.
@Suite("Decoding converts embedded ICC profiles to sRGB, in every format that carries one")
struct EmbeddedProfileDecodingTests {
    private let registry = Registry.standard

    private func decode(_ name: String, _ options: DecodeOptions = DecodeOptions()) throws -> Image {
        try registry.decode(Fixtures.bytes(name), options: options)
    }

    @Test(
        "Lossless files match littleCMS's sRGB conversion within one level",
        arguments: [
            ("icc-adobe-rgb.png", "icc-adobe-rgb-expected.png"),
            ("icc-display-p3.png", "icc-display-p3-expected.png"),
            ("icc-gray-gamma18.png", "icc-gray-gamma18-expected.png"),
            ("icc-adobe-rgb.webp", "icc-adobe-rgb-expected.png"),
            ("icc-adobe-rgb.tiff", "icc-adobe-rgb-expected.png"),
        ])
    func matchesLittleCMS(_ tagged: String, _ expected: String) throws {
        let converted = try decode(tagged)
        let reference = try decode(expected)
        #expect(ImageComparison.maxAbsoluteError(converted, reference) <= 1)
        // The conversion did something: the stored pixels are far from the reference.
        let stored = try decode(tagged, DecodeOptions(colorProfiles: .ignore))
        #expect(ImageComparison.meanAbsoluteError(stored, reference) > 2)
    }

    @Test(
        "Lossy files are the stored pixels through the same conversion",
        arguments: ["icc-adobe-rgb.jpg", "icc-split.jpg", "icc-adobe-rgb.avif"])
    func lossyFormats(_ name: String) throws {
        let bytes = Fixtures.bytes(name)
        let stored = try decode(name, DecodeOptions(colorProfiles: .ignore))
        let profile = try #require(EmbeddedICCProfile.bytes(in: bytes, format: ImageProbe.probe(bytes).format))
        let conversion = try #require(ICCProfile(bytes: profile).flatMap(SRGBConversion.init(from:)))
        let converted = try decode(name)
        #expect(converted == conversion.apply(to: stored))
        #expect(ImageComparison.meanAbsoluteError(converted, stored) > 2)
        // And close to littleCMS's conversion of the uncompressed pattern (lossy encoding aside).
        #expect(ImageComparison.psnr(converted, try decode("icc-adobe-rgb-expected.png")) > 25)
    }

    @Test("A profile split over two APP2 segments stored out of order is reassembled")
    func splitProfile() throws {
        let split = EmbeddedICCProfile.bytes(in: Fixtures.bytes("icc-split.jpg"), format: .jpeg)
        let whole = EmbeddedICCProfile.bytes(in: Fixtures.bytes("icc-adobe-rgb.jpg"), format: .jpeg)
        #expect(split != nil && split == whole)
        #expect(ICCProfile(bytes: try #require(split))?.description == "Adobe RGB (1998) primaries")
    }

    @Test(
        "An sRGB profile, or one cut short, leaves the pixels as stored",
        arguments: ["icc-srgb.jpg", "icc-damaged.jpg"])
    func unchanged(_ name: String) throws {
        #expect(try decode(name) == decode(name, DecodeOptions(colorProfiles: .ignore)))
    }

    @Test("Files without a profile have none")
    func noProfile() {
        for (name, format) in [("gradient.jpg", ImageFormat.jpeg), ("gradient-lossy.webp", .webp), ("gradient.avif", .avif)] {
            #expect(EmbeddedICCProfile.bytes(in: Fixtures.bytes(name), format: format) == nil, "\(name)")
        }
    }
}

@Suite("AVIF colour code points (nclx) are converted to sRGB when there is no ICC profile")
struct NCLXDecodingTests {
    @Test("Display P3 primaries are converted; the pixels are the stored ones through that conversion")
    func displayP3() throws {
        let bytes = Fixtures.bytes("nclx-display-p3.avif")
        #expect(EmbeddedICCProfile.cicp(in: bytes, format: .avif) == CICPColor(primaries: 12, transfer: 13))
        let stored = try Registry.standard.decode(bytes, options: DecodeOptions(colorProfiles: .ignore))
        let conversion = try #require(CICPColor(primaries: 12, transfer: 13).profile.flatMap(SRGBConversion.init(from:)))
        let converted = try Registry.standard.decode(bytes)
        #expect(converted == conversion.apply(to: stored))
        #expect(ImageComparison.meanAbsoluteError(converted, stored) > 2)
    }

    @Test("An HDR (PQ) transfer is left as stored, and so is the usual sRGB nclx")
    func untouched() throws {
        for name in ["nclx-pq.avif", "gradient.avif"] {
            let bytes = Fixtures.bytes(name)
            #expect(try Registry.standard.decode(bytes) == Registry.standard.decode(bytes, options: DecodeOptions(colorProfiles: .ignore)), "\(name)")
        }
    }
}
