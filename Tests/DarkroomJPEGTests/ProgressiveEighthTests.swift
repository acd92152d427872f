import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - Early stop for progressive JPEGs at 1/8

@Suite("Progressive JPEGs at 1/8 read only the scans the small image needs")
struct ProgressiveEighthTests {
    static let source = Pattern.photo(width: 800, height: 600)
    static let eighth = DecodeOptions(sizeHint: PixelSize(width: 100, height: 75))

    static func decodeEighth(_ bytes: [UInt8], _ tuning: JPEGDecoder.Tuning) throws -> Image {
        try JPEGTesting.decode(bytes: bytes, options: eighth, decoder: JPEGDecoder(tuning: tuning))
    }

    @Test("early stop matches the full read closely (4:4:4 at q95, 4:2:0 at q75)", arguments: [
        (95, 50.0), (75, 40.0),
    ])
    func matchesFullRead(quality: Int, floor: Double) throws {
        let bytes = try JPEGTesting.encode(Self.source, quality: quality, progressive: true)
        let early = try Self.decodeEighth(bytes, .default)
        let exact = try Self.decodeEighth(bytes, .exact)
        #expect(early.size == PixelSize(width: 100, height: 75))
        let psnr = ImageComparison.psnr(early, exact)
        #expect(psnr > floor, "q\(quality): \(psnr) dB")
    }

    @Test("full-resolution chroma at 1/8: the DC scans alone give exactly the full read", arguments: [
        PixelSize(width: 800, height: 600), PixelSize(width: 803, height: 597), PixelSize(width: 9, height: 1),
    ])
    func dcOnlyIsExact(size: PixelSize) throws {
        // q95 keeps 4:4:4 chroma, so every component is one DC coefficient per output pixel.
        let bytes = try JPEGTesting.encode(Pattern.photo(width: size.width, height: size.height), quality: 95, progressive: true)
        #expect(JPEGTesting.lumaSampling(bytes)! == (1, 1))
        let options = DecodeOptions(sizeHint: PixelSize(width: (size.width + 7) / 8, height: (size.height + 7) / 8))
        let early = try JPEGTesting.decode(bytes: bytes, options: options)
        let exact = try JPEGTesting.decode(bytes: bytes, options: options, decoder: JPEGDecoder(tuning: .exact))
        #expect(early.size == exact.size)
        #expect(ImageComparison.maxAbsoluteError(early, exact) == 0)
    }

    @Test("the fixture's progressive gradient at 1/8 matches the full read")
    func fixture() throws {
        let bytes = Fixtures.bytes("gradient-progressive.jpg")
        let options = DecodeOptions(sizeHint: PixelSize(width: 8, height: 6))
        let early = try JPEGTesting.decode(bytes: bytes, options: options)
        let exact = try JPEGTesting.decode(bytes: bytes, options: options, decoder: JPEGDecoder(tuning: .exact))
        #expect(early.size == PixelSize(width: 8, height: 6))
        #expect(ImageComparison.maxAbsoluteError(early, exact) <= 1)
    }

    @Test("the last scan is never read: garbage there changes nothing at 1/8")
    func skipsLastScan() throws {
        let bytes = try JPEGTesting.encode(Self.source, quality: 95, progressive: true)
        let scans = JPEGTesting.scanDataRanges(bytes)
        #expect(scans.count == 10)  // libjpeg's standard script for YCbCr
        var damaged = bytes
        var generator = SeededGenerator(state: 7)
        for i in scans.last! { damaged[i] = UInt8.random(in: 0...0xFE, using: &generator) }

        #expect(try Self.decodeEighth(damaged, .default) == Self.decodeEighth(bytes, .default))
        // The garbage does matter to a decoder that reads every scan.
        let fullOriginal = try JPEGTesting.decode(bytes: bytes, decoder: JPEGDecoder(tuning: .exact))
        let fullDamaged = try? JPEGTesting.decode(bytes: damaged, decoder: JPEGDecoder(tuning: .exact))
        #expect(fullDamaged != fullOriginal)
    }

    @Test("a truncated progressive file still throws at 1/8", arguments: [0.1, 0.5, 0.95])
    func truncated(fraction: Double) throws {
        let bytes = try JPEGTesting.encode(Self.source, quality: 95, progressive: true)
        let cut = Array(bytes[..<Int(Double(bytes.count) * fraction)])
        #expect(throws: DarkroomError.self) { try Self.decodeEighth(cut, .default) }
    }
}
