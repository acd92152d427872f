import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - DC scans only, with 4:2:2 chroma

/// The fixtures are in Tests/Fixtures/progressive-subsampled (see its make.py): progressive
/// files with 4:2:2, 4:2:0 and 4:1:1 chroma, libjpeg's scan script or hand-written ones with
/// each component's DC in its own scan ("single-dc") or DC scans that mix interleaved pairs
/// and single components with refinements ("mixed-dc").
@Suite("Progressive 4:2:2 JPEGs at 1/8 are decoded from their DC scans alone")
struct SubsampledEighthTests {
    static func bytes(_ name: String) -> [UInt8] { Fixtures.bytes("progressive-subsampled/\(name).jpg") }

    static func eighth(_ bytes: [UInt8], tuning: JPEGDecoder.Tuning = .default) throws -> Image {
        let header = try ImageProbe.probe(bytes)
        let hint = PixelSize(width: (header.width + 7) / 8, height: (header.height + 7) / 8)
        return try JPEGTesting.decode(bytes: bytes, options: DecodeOptions(sizeHint: hint), decoder: JPEGDecoder(tuning: tuning))
    }

    @Test("luma is exactly libjpeg's 1/8 (grey files: flat chroma), whatever the scan script or size", arguments: [
        "grey422-single-dc", "grey422-9x1", "grey422-17x9",
    ])
    func lumaIsExact(name: String) throws {
        let bytes = Self.bytes(name)
        #expect(JPEGTesting.lumaSampling(bytes)! == (2, 1))
        let early = try Self.eighth(bytes)
        let exact = try Self.eighth(bytes, tuning: .exact)
        #expect(early.size == exact.size)
        #expect(ImageComparison.maxAbsoluteError(early, exact) == 0)
    }

    @Test("colour is at least as close to the full image shrunk by 8 as libjpeg's own 1/8", arguments: [
        "photo422", "photo422-single-dc", "photo422-203x133",
    ])
    func colourIsClose(name: String) throws {
        let bytes = Self.bytes(name)
        let early = try Self.eighth(bytes)
        let libjpeg = try Self.eighth(bytes, tuning: .exact)
        let truth = JPEGTesting.boxDownscale(try JPEGTesting.decode(bytes: bytes, decoder: JPEGDecoder(tuning: .exact)), by: 8)
        #expect(early.size == truth.size && libjpeg.size == truth.size)
        let ours = ImageComparison.psnr(early, truth), theirs = ImageComparison.psnr(libjpeg, truth)
        #expect(ours > theirs + 3, "\(name): \(ours) dB, libjpeg \(theirs) dB")
    }

    @Test("the same coefficients in other scan scripts give the same pixels")
    func scanScripts() throws {
        #expect(try Self.eighth(Self.bytes("photo422-203x133")) == Self.eighth(Self.bytes("photo422-203x133-mixed")))
    }

    @Test("no AC scan is read: garbage in all of them changes nothing at 1/8")
    func skipsEveryACScan() throws {
        let bytes = Self.bytes("photo422-203x133")
        let scans = JPEGTesting.scanDataRanges(bytes)
        // The scan header ends with Ss, Se, Ah/Al: Ss > 0 is an AC scan.
        let acScans = scans.filter { bytes[$0.lowerBound - 3] > 0 }
        #expect(acScans.count >= 6 && acScans.count < scans.count)
        var damaged = bytes
        var generator = SeededGenerator(state: 11)
        for scan in acScans {
            for i in scan { damaged[i] = UInt8.random(in: 0...0xFE, using: &generator) }
        }
        #expect(try Self.eighth(damaged) == Self.eighth(bytes))
    }

    @Test("4:2:0 and 4:1:1 files are left to libjpeg and still decode at 1/8", arguments: [
        "photo420", "photo420-mixed-dc", "photo411-single-dc", "grey420-9x1", "grey420-mixed-dc", "grey411-single-dc",
    ])
    func otherSubsampling(name: String) throws {
        let bytes = Self.bytes(name)
        let early = try Self.eighth(bytes)
        let exact = try Self.eighth(bytes, tuning: .exact)
        #expect(early.size == exact.size)
        #expect(ImageComparison.psnr(early, exact) > 35)
    }

    @Test("a DC Huffman table with more codes than its lengths allow is refused, not overrun")
    func oversubscribedHuffmanTable() throws {
        // Table 0 redefined before the first scan: 200 codes of length 1.
        var bytes = Self.bytes("photo422")
        let table: [UInt8] = [0xFF, 0xC4, 0x00, 219, 0x00, 200] + [UInt8](repeating: 0, count: 15) + [UInt8](repeating: 1, count: 200)
        let firstScan = JPEGTesting.scanDataRanges(bytes)[0].lowerBound
        let sos = bytes[..<firstScan].lastIndex(of: 0xDA)! - 1  // the FF of the first SOS marker
        bytes.insert(contentsOf: table, at: sos)
        #expect(throws: DarkroomError.self) { try Self.eighth(bytes) }
    }

    @Test("a damaged DC scan still throws rather than returning wrong pixels")
    func damagedDCScanThrows() throws {
        let bytes = Self.bytes("photo422-203x133")
        let first = JPEGTesting.scanDataRanges(bytes)[0]
        let cut = Array(bytes[..<(first.lowerBound + first.count / 2)])
        #expect(throws: DarkroomError.self) { try Self.eighth(cut) }
    }
}
