import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Registry

@Suite("The standard registry picks the fastest codec that accepts each input")
struct RegistryTests {
    @Test(
        "each format goes to its preferred decoder",
        arguments: [
            ("gradient.jpg", "libjpeg-turbo"), ("gradient-rgba.png", "libpng"), ("gradient-lossy.webp", "libwebp"),
            ("blocks.gif", "libgd"), ("gradient.avif", "libgd"), ("gradient.tiff", "libtiff"),
            ("gradient.bmp", "darkroom-bmp"), ("gradient.tga", "darkroom-tga"),
        ])
    func preferredDecoder(file: String, decoder: String) throws {
        let header = try ImageProbe.probe(Fixtures.bytes(file))
        #expect(try Registry.standard.decoder(for: header, options: DecodeOptions()).name == decoder)
    }

    @Test(
        "every fixture decodes through the registry to the pattern",
        arguments: [
            ("gradient.jpg", 3.0), ("gradient-progressive.jpg", 3.0), ("gradient-rgb.png", 0.0),
            ("gradient-lossy.webp", 4.0), ("gradient-lossless.webp", 0.0), ("gradient.avif", 6.0),
            ("gradient.heic", 6.0), ("gradient.tiff", 0.0), ("gradient.bmp", 0.0), ("gradient.tga", 0.0),
        ])
    func decodesFixtures(file: String, maxError: Double) throws {
        let image = try Registry.standard.decode(Fixtures.bytes(file))
        #expect(image.size == PixelSize(width: 64, height: 48))
        let error = ImageComparison.meanAbsoluteError(image, Pattern.gradient(), includeAlpha: false)
        #expect(error <= maxError, "MAE \(error)")
    }

    @Test("JPEG, PNG, WebP and TIFF are encoded by their own libraries, the rest by libgd")
    func encoders() throws {
        let registry = Registry.standard
        #expect(try registry.encoder(for: .jpeg).name == "libjpeg-turbo")
        #expect(try registry.encoder(for: .png).name == "libpng")
        #expect(try registry.encoder(for: .webp).name == "libwebp")
        #expect(try registry.encoder(for: .tiff).name == "libtiff")
        #expect(try registry.encoder(for: .avif).name == "libgd")
        #expect(try registry.encoder(for: .gif).name == "libgd")
        #expect(try registry.encoder(for: .bmp).name == "libgd")
    }

    @Test("an empty registry says which format has no decoder")
    func emptyRegistry() throws {
        let registry = Registry()
        #expect {
            try registry.decode(Fixtures.bytes("gradient.jpg"))
        } throws: { error in
            "\(error)".contains("JPEG") && "\(error)".contains("no registered decoder")
        }
        #expect(throws: DarkroomError.self) { try registry.encoder(for: .png) }
    }

    @Test("a decoder registered first is asked first, and one that declines is skipped")
    func orderAndDeclining() throws {
        var registry = Registry()
        registry.register(decoder: DecliningDecoder())
        registry.registerStandardCodecs()
        let header = try ImageProbe.probe(Fixtures.bytes("gradient.jpg"))
        #expect(try registry.decoder(for: header, options: DecodeOptions()).name == "libjpeg-turbo")
        let small = try ImageProbe.probe(Fixtures.bytes("blocks.gif"))
        #expect(try registry.decoder(for: small, options: DecodeOptions()).name == "gif-only")
    }

    @Test("limits are checked from the header before decoding")
    func limits() throws {
        var options = DecodeOptions()
        options.limits.maxPixels = 1000
        #expect(throws: DarkroomError.tooManyPixels(width: 64, height: 48, limit: 1000)) {
            try Registry.standard.decode(Fixtures.bytes("gradient.jpg"), options: options)
        }
        options.limits = DecodeLimits(maxInputBytes: 100)
        #expect(throws: DarkroomError.self) { try Registry.standard.decode(Fixtures.bytes("gradient.jpg"), options: options) }
    }
}

/// A decoder that accepts only GIFs and delegates the work to libgd through the standard
/// registry: enough to observe ordering and declining.
private struct DecliningDecoder: ImageDecoder {
    var name: String { "gif-only" }

    func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool { header.format == .gif }

    func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try Registry.standard.decode(bytes, options: options)
    }
}
