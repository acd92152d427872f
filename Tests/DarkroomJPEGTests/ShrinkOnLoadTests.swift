import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - Choosing the scale

@Suite("Shrink-on-load picks the smallest DCT scale that still covers the upright size hint")
struct ScaleChoiceTests {
    static let landscape = ImageHeader(format: .jpeg, width: 1600, height: 1200)

    @Test("hints map to the expected denominators", arguments: [
        (PixelSize?.none, 1),
        (PixelSize(width: 1, height: 1), 8),
        (PixelSize(width: 200, height: 150), 8),
        (PixelSize(width: 201, height: 150), 4),
        (PixelSize(width: 200, height: 151), 4),
        (PixelSize(width: 400, height: 300), 4),
        (PixelSize(width: 401, height: 300), 2),
        (PixelSize(width: 800, height: 600), 2),
        (PixelSize(width: 801, height: 600), 1),
        (PixelSize(width: 3000, height: 3000), 1),
    ])
    func denominators(hint: PixelSize?, expected: Int) {
        #expect(JPEGDecoder.scaleDenominator(for: Self.landscape, sizeHint: hint) == expected)
    }

    @Test("hints are compared with the upright size of a rotated image")
    func rotated() {
        var header = Self.landscape
        header.orientation = .right  // upright 1200×1600
        #expect(JPEGDecoder.scaleDenominator(for: header, sizeHint: PixelSize(width: 150, height: 200)) == 8)
        #expect(JPEGDecoder.scaleDenominator(for: header, sizeHint: PixelSize(width: 200, height: 150)) == 4)
        #expect(JPEGDecoder.scaleDenominator(for: header, sizeHint: PixelSize(width: 300, height: 400)) == 4)
        #expect(JPEGDecoder.scaleDenominator(for: header, sizeHint: PixelSize(width: 400, height: 300)) == 2)
    }

    @Test("scaled sizes round up as libjpeg does")
    func roundingUp() {
        #expect(JPEGDecoder.scaledSize(of: PixelSize(width: 1601, height: 1201), denominator: 8)
            == PixelSize(width: 201, height: 151))
        let odd = ImageHeader(format: .jpeg, width: 1601, height: 1201)
        #expect(JPEGDecoder.scaleDenominator(for: odd, sizeHint: PixelSize(width: 201, height: 151)) == 8)
        #expect(JPEGDecoder.scaleDenominator(for: odd, sizeHint: PixelSize(width: 202, height: 151)) == 4)
    }
}

// MARK: - Decoding at a scale

@Suite("Scaled JPEG decodes have the chosen size and look like the full image shrunk")
struct ScaledDecodeTests {
    @Test("a 1600×1200 JPEG decodes at the size its hint selects", arguments: [
        (PixelSize?.none, PixelSize(width: 1600, height: 1200)),
        (PixelSize(width: 200, height: 150), PixelSize(width: 200, height: 150)),
        (PixelSize(width: 201, height: 150), PixelSize(width: 400, height: 300)),
        (PixelSize(width: 401, height: 300), PixelSize(width: 800, height: 600)),
        (PixelSize(width: 801, height: 600), PixelSize(width: 1600, height: 1200)),
        (PixelSize(width: 5000, height: 5000), PixelSize(width: 1600, height: 1200)),
    ])
    func sizes(hint: PixelSize?, expected: PixelSize) throws {
        let image = try JPEGTesting.decode(bytes: JPEGTesting.photoJPEG, options: DecodeOptions(sizeHint: hint))
        #expect(image.size == expected)
    }

    @Test("with EXIF orientation 6 the hint is met in upright space")
    func rotated() throws {
        let bytes = JPEGTesting.insertingExifOrientation(.right, into: JPEGTesting.photoJPEG)
        #expect(try ImageProbe.probe(bytes).orientation == .right)
        let eighth = try JPEGTesting.decode(bytes: bytes, options: DecodeOptions(sizeHint: PixelSize(width: 150, height: 200)))
        #expect(eighth.size == PixelSize(width: 150, height: 200))
        let quarter = try JPEGTesting.decode(bytes: bytes, options: DecodeOptions(sizeHint: PixelSize(width: 200, height: 150)))
        #expect(quarter.size == PixelSize(width: 300, height: 400))
        let stored = try JPEGTesting.decode(
            bytes: bytes, options: DecodeOptions(sizeHint: PixelSize(width: 200, height: 150), appliesOrientation: false))
        #expect(stored.size == PixelSize(width: 400, height: 300))
        #expect(stored.applying(.right) == quarter)
    }

    @Test("odd sizes round up: 203×101 at 1/8 is 26×13")
    func oddSize() throws {
        let bytes = try JPEGTesting.encode(Pattern.photo(width: 203, height: 101), quality: 90)
        let image = try JPEGTesting.decode(bytes: bytes, options: DecodeOptions(sizeHint: PixelSize(width: 26, height: 13)))
        #expect(image.size == PixelSize(width: 26, height: 13))
    }

    @Test("each scale is close to a box-filtered full decode", arguments: [2, 4, 8])
    func quality(denominator: Int) throws {
        let full = try JPEGTesting.decode(bytes: JPEGTesting.photoJPEG)
        let hint = JPEGDecoder.scaledSize(of: full.size, denominator: denominator)
        let scaled = try JPEGTesting.decode(bytes: JPEGTesting.photoJPEG, options: DecodeOptions(sizeHint: hint))
        let reference = JPEGTesting.boxDownscale(full, by: denominator)
        let psnr = ImageComparison.psnr(scaled, reference)
        #expect(psnr > 48, "1/\(denominator): \(psnr) dB")
    }
}

// MARK: - Proportions of a partial scale

@Suite("A scale that does not divide the frame records the full size, upright, for resizes")
struct ShrunkFromTests {
    @Test("451×300 at 1/4 is 113×75 and remembers 451×300; 448×300 divides and records nothing")
    func recordsTheFullSize() throws {
        let hint = PixelSize(width: 112, height: 75)
        let odd = try JPEGTesting.decode(
            bytes: JPEGTesting.encode(Pattern.photo(width: 451, height: 300), quality: 90),
            options: DecodeOptions(sizeHint: hint))
        #expect(odd.size == PixelSize(width: 113, height: 75))
        #expect(odd.shrunkFrom == PixelSize(width: 451, height: 300))
        #expect(odd.proportions == PixelSize(width: 451, height: 300))
        let even = try JPEGTesting.decode(
            bytes: JPEGTesting.encode(Pattern.photo(width: 448, height: 300), quality: 90),
            options: DecodeOptions(sizeHint: hint))
        #expect(even.size == PixelSize(width: 112, height: 75))
        #expect(even.shrunkFrom == nil)
    }

    @Test("a turned file records its upright full size")
    func upright() throws {
        let bytes = JPEGTesting.insertingExifOrientation(
            .right, into: try JPEGTesting.encode(Pattern.photo(width: 451, height: 300), quality: 90))
        let image = try JPEGTesting.decode(bytes: bytes, options: DecodeOptions(sizeHint: PixelSize(width: 75, height: 112)))
        #expect(image.size == PixelSize(width: 75, height: 113))
        #expect(image.shrunkFrom == PixelSize(width: 300, height: 451))
    }
}
