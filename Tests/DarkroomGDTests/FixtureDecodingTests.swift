import DarkroomCore
import DarkroomGD
import DarkroomTestSupport
import Testing

// MARK: - Cases

/// One committed fixture, the formula it was made from, and how close libgd must get.
struct FixtureCase: Sendable, CustomTestStringConvertible {
    var name: String
    var reference: @Sendable () -> Image
    /// Mean absolute error bound over RGBA.
    var maximumMeanError: Double
    /// Largest single-channel error allowed, or `nil` for lossy formats.
    var maximumError: Int?
    var hasAlpha: Bool

    var testDescription: String { name }

    /// Lossless formats with an opaque source: exact.
    static func exact(_ name: String, _ reference: @escaping @Sendable () -> Image) -> FixtureCase {
        FixtureCase(name: name, reference: reference, maximumMeanError: 0, maximumError: 0, hasAlpha: false)
    }

    /// Lossless formats with 8-bit alpha: colour exact, alpha off by at most the bit libgd drops.
    static func sevenBitAlpha(_ name: String, _ reference: @escaping @Sendable () -> Image) -> FixtureCase {
        FixtureCase(name: name, reference: reference, maximumMeanError: 0.25, maximumError: 1, hasAlpha: true)
    }

    static func lossy(_ name: String, meanError: Double) -> FixtureCase {
        FixtureCase(name: name, reference: { Pattern.gradient() }, maximumMeanError: meanError, maximumError: nil, hasAlpha: false)
    }
}

let fixtureCases: [FixtureCase] = [
    .exact("gradient-rgb.png") { Pattern.gradient() },
    .sevenBitAlpha("gradient-rgba.png") { Pattern.gradient(alpha: true) },
    .sevenBitAlpha("gradient-rgba16.png") { Pattern.gradient(alpha: true) },
    .sevenBitAlpha("gradient-gray-alpha.png") { Pattern.greyAlpha() },
    .exact("blocks-palette.png") { Pattern.blocks() },
    .exact("blocks.gif") { Pattern.blocks() },
    .sevenBitAlpha("gradient-lossless.webp") { Pattern.gradient(alpha: true) },
    .exact("gradient.tiff") { Pattern.gradient() },
    .exact("gradient.bmp") { Pattern.gradient() },
    // Stored top-first with the descriptor's top-left origin bit set.
    .exact("gradient.tga") { Pattern.gradient() },
    .sevenBitAlpha("gradient-rgba.tga") { Pattern.gradient(alpha: true) },
    // Quality 95, 4:4:4 (measured ≈ 0.34).
    .lossy("gradient.jpg", meanError: 1),
    .lossy("gradient-progressive.jpg", meanError: 1),
    // Quality 95 / 90 (measured ≈ 0.80, 0.46, 0.88).
    .lossy("gradient-lossy.webp", meanError: 1.5),
    .lossy("gradient.avif", meanError: 1.5),
    .lossy("gradient.heic", meanError: 2),
]

// MARK: - Tests

@Suite("libgd decodes every fixture format to the pattern it was made from")
struct FixtureDecodingTests {
    let decoder = GDDecoder()

    @Test("decodes to 64×48 within the format's error bound", arguments: fixtureCases)
    func decodesCloseToPattern(_ fixture: FixtureCase) throws {
        let image = try decoder.decode(Fixtures.bytes(fixture.name))
        let reference = fixture.reference()
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(ImageComparison.meanAbsoluteError(image, reference) <= fixture.maximumMeanError)
        if let bound = fixture.maximumError {
            #expect(ImageComparison.maxAbsoluteError(image, reference) <= bound)
        }
    }

    @Test("reports alpha only when some pixel is translucent", arguments: fixtureCases)
    func hasAlphaIsTruthful(_ fixture: FixtureCase) throws {
        let image = try decoder.decode(Fixtures.bytes(fixture.name))
        #expect(image.hasAlpha == fixture.hasAlpha)
        #expect(image.withAlphaScanned().hasAlpha == image.hasAlpha)
    }

    @Test("keeps fully opaque and fully transparent alpha exact")
    func alphaEndsAreExact() throws {
        // gradient-rgba.png: A = 255 − 4x, so x = 0 is opaque; the grey+alpha fixture reaches 20.
        let image = try decoder.decode(Fixtures.bytes("gradient-rgba.png"))
        #expect(image.pixel(x: 0, y: 10).a == 255)
        let transparent = try decoder.decode(BaselineTIFF.encode(Pattern.gradient(alpha: true).settingAlpha(0)))
        #expect(transparent.pixel(x: 5, y: 5).a == 0)
    }

    @Test("decodes HEIF with this build's libheif")
    func decodesHEIF() throws {
        if decoder.readableFormats.contains(.heif) {
            let image = try decoder.decode(Fixtures.bytes("gradient.heic"))
            #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient()) <= 2)
        } else {
            #expect(throws: DarkroomError.unsupportedFormat(.heif, reason: "this libgd build cannot read HEIF")) {
                try decoder.decode(Fixtures.bytes("gradient.heic"))
            }
        }
    }

    @Test("a GIF frame smaller than its screen is placed on a transparent canvas")
    func gifFramePlacement() throws {
        // 4×3 screen, palette black/red, one 2×1 red frame at (1, 1); LZW: clear, 1, 1, end.
        let gif: [UInt8] = Array("GIF89a".utf8) + [4, 0, 3, 0, 0x80, 0, 0, 0, 0, 0, 255, 0, 0]
            + [0x2C, 1, 0, 1, 0, 2, 0, 1, 0, 0] + [2, 2, 0x4C, 0x0A, 0] + [0x3B]
        let image = try decoder.decode(gif)
        #expect(image.size == PixelSize(width: 4, height: 3))
        #expect(image.hasAlpha)
        for y in 0..<3 {
            for x in 0..<4 {
                let inFrame = y == 1 && (1...2).contains(x)
                #expect(image.pixel(x: x, y: y) == (inFrame ? RGBA(r: 255, g: 0, b: 0) : RGBA(r: 0, g: 0, b: 0, a: 0)))
            }
        }
    }

    @Test("lists the formats libgd can read and write here")
    func capabilities() {
        let always: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .bmp, .tiff, .tga]
        #expect(always.isSubset(of: decoder.readableFormats))
        #expect(!decoder.writableFormats.contains(.tga))
        #expect(decoder.canDecode(ImageHeader(format: .png, width: 1, height: 1), options: DecodeOptions()))
        #expect(decoder.name == "libgd")
    }
}

extension Image {
    /// A copy with every alpha byte set to `alpha`.
    func settingAlpha(_ alpha: UInt8) -> Image {
        var pixels = self.pixels
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = alpha }
        return try! Image(width: width, height: height, pixels: pixels, hasAlpha: true)
    }
}
