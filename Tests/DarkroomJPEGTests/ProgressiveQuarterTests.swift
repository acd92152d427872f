import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - Early stop for progressive JPEGs at 1/4

@Suite("Progressive JPEGs at 1/4 skip only the last AC refinement bits")
struct ProgressiveQuarterTests {
    static let source = Pattern.photo(width: 800, height: 600)
    static let quarter = DecodeOptions(sizeHint: PixelSize(width: 200, height: 150))

    static func decodeQuarter(_ bytes: [UInt8], _ tuning: JPEGDecoder.Tuning) throws -> Image {
        try JPEGTesting.decode(bytes: bytes, options: quarter, decoder: JPEGDecoder(tuning: tuning))
    }

    @Test("early stop matches the full 1/4 read closely (4:4:4 at q95, 4:2:0 at q75)", arguments: [
        (95, 50.0), (75, 40.0),
    ])
    func matchesFullRead(quality: Int, floor: Double) throws {
        let bytes = try JPEGTesting.encode(Self.source, quality: quality, progressive: true)
        let early = try Self.decodeQuarter(bytes, .default)
        let exact = try Self.decodeQuarter(bytes, .exact)
        #expect(early.size == PixelSize(width: 200, height: 150))
        let psnr = ImageComparison.psnr(early, exact)
        #expect(psnr > floor, "q\(quality): \(psnr) dB")
    }

    @Test("the last scan (luma AC refinement to full precision) is never read at 1/4")
    func skipsLastScan() throws {
        let bytes = try JPEGTesting.encode(Self.source, quality: 95, progressive: true)
        let scans = JPEGTesting.scanDataRanges(bytes)
        #expect(scans.count == 10)  // libjpeg's standard script for YCbCr
        var damaged = bytes
        var generator = SeededGenerator(state: 11)
        for i in scans.last! { damaged[i] = UInt8.random(in: 0...0xFE, using: &generator) }

        let early = try Self.decodeQuarter(bytes, .default)
        #expect(try Self.decodeQuarter(damaged, .default) == early)
        // The full read does use that scan.
        #expect(try Self.decodeQuarter(bytes, .exact) != early)
    }

    @Test("a truncated progressive file still throws at 1/4", arguments: [0.1, 0.5, 0.95])
    func truncated(fraction: Double) throws {
        let bytes = try JPEGTesting.encode(Self.source, quality: 95, progressive: true)
        let cut = Array(bytes[..<Int(Double(bytes.count) * fraction)])
        #expect(throws: DarkroomError.self) { try Self.decodeQuarter(cut, .default) }
    }

    @Test("other scales are not affected: 1/2 reads every scan")
    func halfIsExact() throws {
        let bytes = try JPEGTesting.encode(Self.source, quality: 95, progressive: true)
        let half = DecodeOptions(sizeHint: PixelSize(width: 400, height: 300))
        let early = try JPEGTesting.decode(bytes: bytes, options: half)
        let exact = try JPEGTesting.decode(bytes: bytes, options: half, decoder: JPEGDecoder(tuning: .exact))
        #expect(early == exact)
    }
}
