import DarkroomCore
import DarkroomTestSupport
import DarkroomTIFF
import Synchronization
import Testing

// MARK: - Limits and damage

/// The warnings a decode reported.
final class TIFFWarningLog: Sendable {
    private let warnings = Mutex<[DecodeWarning]>([])
    var all: [DecodeWarning] { warnings.withLock { $0 } }
    var handler: DecodeWarningHandler { DecodeWarningHandler { warning in self.warnings.withLock { $0.append(warning) } } }
}

@Suite("TIFF limits and damage: pixel limits before allocation, cut and broken files by the fail-on level")
struct TIFFDamageTests {
    /// A 16×12 grey page in 4-row strips, level 200 everywhere.
    private let page: TIFFWriter.Page = {
        var page = TIFFWriter.Page(width: 16, height: 12, photometric: 1, samples: Array(repeating: 200, count: 192))
        page.rowsPerStrip = 4
        return page
    }()

    @Test("a page over the pixel limit is refused with its size")
    func pixelLimit() throws {
        let file = TIFFWriter(pages: [page]).bytes()
        let options = DecodeOptions(limits: DecodeLimits(maxPixels: 100))
        #expect(throws: DarkroomError.tooManyPixels(width: 16, height: 12, limit: 100)) {
            try TIFFDecoder().decode(file, header: ImageHeader(format: .tiff, width: 1, height: 1), options: options)
        }
    }

    @Test("a tile over the pixel limit is refused before libtiff inflates it, whatever the page's size")
    func tileLimit() throws {
        var tiled = TIFFWriter.Page(width: 4, height: 4, photometric: 1, samples: Array(repeating: 1, count: 16))
        tiled.tile = (64, 64)
        let file = TIFFWriter(pages: [tiled]).bytes()
        let options = DecodeOptions(limits: DecodeLimits(maxPixels: 1000))
        #expect(throws: DarkroomError.frameTooLarge(.tiff, width: 4, height: 4, frame: PixelSize(width: 64, height: 64), limit: 1000)) {
            try TIFFDecoder().decode(file, header: ImageHeader(format: .tiff, width: 4, height: 4), options: options)
        }
    }

    @Test("a file cut inside its pixel data is truncated: refused at truncated and above")
    func cutFileRefused() throws {
        let file = Array(TIFFWriter(pages: [page]).bytes().dropLast(100))
        for level in [FailOn.truncated, .error, .warning] {
            #expect(throws: DarkroomError.self) { try decodeTIFF(file, options: DecodeOptions(failOn: level)) }
            do {
                _ = try decodeTIFF(file, options: DecodeOptions(failOn: level))
            } catch let DarkroomError.truncated(format, detail) {
                #expect(format == .tiff && detail.hasPrefix("strip "), "\(detail)")
            }
        }
    }

    @Test("at fail-on none a cut file decodes what arrived, the missing strips transparent, and says so")
    func cutFileLetThrough() throws {
        let file = Array(TIFFWriter(pages: [page]).bytes().dropLast(100))  // the last two strips are cut
        let log = TIFFWarningLog()
        let image = try decodeTIFF(file, options: DecodeOptions(failOn: .none, warnings: log.handler))
        #expect(image.pixel(x: 0, y: 0) == RGBA(r: 200, g: 200, b: 200))
        #expect(image.pixel(x: 15, y: 3) == RGBA(r: 200, g: 200, b: 200))
        #expect(image.pixel(x: 0, y: 11) == RGBA(r: 0, g: 0, b: 0, a: 0))
        #expect(image.hasAlpha)
        #expect(log.all.count == 1)
        #expect(log.all.first?.damage == .truncated && log.all.first?.format == .tiff)
    }

    @Test("a strip whose data lies inside the file but cannot be decoded is an error: let through at truncated")
    func brokenStrip() throws {
        var lzw = page
        lzw.extraTags[259] = .shorts([5])  // says LZW; the data is raw bytes (200s), no valid code stream
        let file = TIFFWriter(pages: [lzw]).bytes()
        #expect(throws: DarkroomError.self) { try decodeTIFF(file, options: DecodeOptions(failOn: .error)) }
        let log = TIFFWarningLog()
        _ = try decodeTIFF(file, options: DecodeOptions(failOn: .truncated, warnings: log.handler))
        #expect(log.all.first?.damage == .error)
    }

    @Test("bytes that are not a TIFF structure are corrupt, in one line")
    func garbage() throws {
        var file = TIFFWriter(pages: [page]).bytes()
        file.replaceSubrange(8..<10, with: [0xFF, 0xFF])  // 65535 directory entries
        #expect(throws: DarkroomError.self) { try decodeTIFF(file) }
        do {
            _ = try decodeTIFF(file)
        } catch {
            #expect(!"\(error)".contains("\n"))
        }
    }
}
