import DarkroomCore
import DarkroomTestSupport
import DarkroomWebP
import Testing

// MARK: - Lossless

@Suite("Lossless WebP keeps every pixel, all 256 alpha values included")
struct WebPLosslessTests {
    @Test("every alpha value 0…255, and the colour under alpha 0, survive WebP → WebP")
    func alphaValues() throws {
        let source = alphaRamp()
        let decoded = try decodeWebP(encodeWebP(source, lossless: true))
        #expect(decoded.pixels == source.pixels)
        #expect(decoded.hasAlpha)
        #expect(try decodeWebP(encodeWebP(decoded, lossless: true)).pixels == source.pixels)
    }

    @Test("a photo-like image round-trips exactly, and opaque images carry no alpha")
    func opaquePhoto() throws {
        let source = Pattern.photo(width: 120, height: 80)
        let bytes = try encodeWebP(source, lossless: true)
        #expect(try ImageProbe.probe(bytes).hasAlpha == false)
        let decoded = try decodeWebP(bytes)
        #expect(decoded == source)
    }
}

// MARK: - Lossy

@Suite("Lossy WebP: quality trades size for error; alpha stays exact")
struct WebPLossyTests {
    @Test("lower quality gives a smaller file and a larger error")
    func quality() throws {
        let source = Pattern.photo(width: 192, height: 128)
        let low = try encodeWebP(source, quality: 20)
        let high = try encodeWebP(source, quality: 90)
        #expect(low.count < high.count)
        let lowError = ImageComparison.meanAbsoluteError(try decodeWebP(low), source)
        let highError = ImageComparison.meanAbsoluteError(try decodeWebP(high), source)
        #expect(lowError > highError)
        // Measured with libwebp 1.2.4: q90 1320 bytes, MAE 0.86; q20 480 bytes, MAE 1.53.
        #expect(highError < 1.0)
        #expect(lowError < 2.0)
    }

    @Test("the default quality is 80")
    func defaultQuality() throws {
        let source = Pattern.photo(width: 96, height: 64)
        #expect(try encodeWebP(source) == encodeWebP(source, quality: 80))
    }

    @Test("an opaque image is written without an alpha plane")
    func opaque() throws {
        let bytes = try encodeWebP(Pattern.photo(width: 64, height: 64))
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "VP8 ")  // a simple lossy file: no ALPH
        #expect(try decodeWebP(bytes).hasAlpha == false)
    }

    @Test("alpha is kept exactly beside lossy colour")
    func lossyAlpha() throws {
        let source = alphaRamp()
        let decoded = try decodeWebP(encodeWebP(source, quality: 75))
        #expect(alphaChannel(decoded) == alphaChannel(source))
        #expect(decoded.hasAlpha)
    }
}

// MARK: - Options

@Suite("The WebP encoder validates its options")
struct WebPEncoderOptionTests {
    @Test("out-of-range quality, the wrong format and oversized images are refused")
    func invalid() {
        let image = Pattern.gradient()
        #expect(throws: DarkroomError.invalidArgument(name: "quality", value: "0", expected: "an integer 1…100")) {
            try WebPEncoder().encode(image, options: EncodeOptions(format: .webp, quality: 0))
        }
        #expect(throws: DarkroomError.self) {
            try WebPEncoder().encode(image, options: EncodeOptions(format: .png))
        }
        let wide = Image(width: 16384, height: 1, hasAlpha: false) { $0.initialize(repeating: 9) }
        #expect(throws: DarkroomError.self) {
            try WebPEncoder().encode(wide, options: EncodeOptions(format: .webp))
        }
    }

    @Test("the encoder names itself and its format")
    func identity() {
        #expect(WebPEncoder().name == "libwebp")
        #expect(WebPEncoder().format == .webp)
    }
}
