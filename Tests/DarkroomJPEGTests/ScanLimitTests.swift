import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - Progressive files with very many scans

@Suite("Progressive JPEGs with more than 500 scans are refused")
struct ScanLimitTests {
    /// A valid progressive 8×8 greyscale JPEG whose coefficients are all zero, sent in the
    /// most scans the standard allows: DC at Al = 13 then 13 refinements, and each of the 63
    /// AC coefficients in its own band at Al = 13 then 13 refinements (896 scans). Every
    /// Huffman table holds one symbol, 0 (DC: difference 0; AC: end of band), coded as the
    /// bit `0`, so every scan's data is that bit padded with ones: 0x7F. `scanCount` keeps
    /// the first scans of that script.
    static func manyScans(_ scanCount: Int) -> [UInt8] {
        var scans: [(ss: UInt8, se: UInt8, ah: UInt8, al: UInt8)] = [(0, 0, 0, 13)]
        scans += (1...13).map { (0, 0, UInt8(14 - $0), UInt8(13 - $0)) }
        for k in UInt8(1)...63 {
            scans.append((k, k, 0, 13))
            scans += (1...13).map { (k, k, UInt8(14 - $0), UInt8(13 - $0)) }
        }
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)  // DQT: all 1
        bytes += [0xFF, 0xC2, 0x00, 0x0B, 8, 0, 8, 0, 8, 1, 1, 0x11, 0]            // SOF2 8×8 grey
        let oneSymbol: [UInt8] = [1] + [UInt8](repeating: 0, count: 15) + [0]        // code "0" → 0
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x00] + oneSymbol                         // DHT DC 0
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x10] + oneSymbol                         // DHT AC 0
        for scan in scans.prefix(scanCount) {
            bytes += [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0x00, scan.ss, scan.se, scan.ah << 4 | scan.al, 0x7F]
        }
        return bytes + [0xFF, 0xD9]
    }

    @Test("the 896-scan construction is valid when cut to 200 scans: it decodes mid-grey")
    func fewScansDecode() throws {
        let image = try JPEGTesting.decode(bytes: Self.manyScans(200))
        #expect(image.size == PixelSize(width: 8, height: 8))
        #expect(image.pixels.allSatisfy { $0 == 128 || $0 == 255 })
    }

    @Test("896 scans are refused as corrupt, naming the limit")
    func tooManyScans() throws {
        do {
            let image = try JPEGTesting.decode(bytes: Self.manyScans(896))
            Issue.record("decoded a \(image.size) image")
        } catch let DarkroomError.corrupt(format, detail) {
            #expect(format == .jpeg)
            #expect(detail.contains("500 scans"), "\(detail)")
        }
    }
}
