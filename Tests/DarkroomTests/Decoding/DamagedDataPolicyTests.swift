import Darkroom
import DarkroomCore
import DarkroomPNG
import DarkroomTestSupport
import Testing

// MARK: - fail-on through every decoder

/// Damaged files decoded by each standard decoder at each ``FailOn`` level: refused where the
/// level says, otherwise decoded as far as the data goes with one ``DecodeWarning``.
@Suite("Damaged pixel data is refused or decoded as far as it goes, as fail-on says, by every decoder")
struct DamagedDataPolicyTests {
    /// A 96×64 photo-like picture: enough rows that a cut file still holds some.
    static let picture = Pattern.photo(width: 96, height: 64)

    /// Encodings of ``picture`` whose truncation every decoder can recover from.
    static let encodings: [(name: String, options: EncodeOptions)] = [
        ("jpeg", EncodeOptions(format: .jpeg, quality: 90)),
        ("progressive-jpeg", EncodeOptions(format: .jpeg, quality: 90, progressive: true)),
        ("png", EncodeOptions(format: .png)),
        ("webp-lossless", EncodeOptions(format: .webp, lossless: true)),
        ("webp-lossy", EncodeOptions(format: .webp, quality: 90)),
        ("bmp", EncodeOptions(format: .bmp)),
    ]

    static func encoded(_ name: String) throws -> [UInt8] {
        let options = try #require(encodings.first { $0.name == name }).options
        return try Registry.standard.encode(picture, options: options)
    }

    /// Decodes `bytes` with `failOn`, returning the image and the warnings sent.
    static func decode(
        _ bytes: [UInt8], failOn: FailOn, sizeHint: PixelSize? = nil
    ) throws -> (image: Image, warnings: [DecodeWarning]) {
        let log = DecodeWarningLog()
        let image = try Registry.standard.decode(bytes, options: DecodeOptions(sizeHint: sizeHint, failOn: failOn, warnings: log.handler))
        return (image, log.warnings)
    }

    // MARK: - Truncation

    @Test("a file cut at 60 % is refused as truncated at warning, error and truncated", arguments: encodings.map(\.name))
    func truncationRefused(name: String) throws {
        let whole = try Self.encoded(name)
        let cut = Array(whole.prefix(whole.count * 6 / 10))
        for level in [FailOn.warning, .error, .truncated] {
            let log = DecodeWarningLog()
            do {
                _ = try Registry.standard.decode(cut, options: DecodeOptions(failOn: level, warnings: log.handler))
                Issue.record("\(name) at \(level): decoded")
            } catch let DarkroomError.truncated(format, _) {
                #expect(format == (try ImageProbe.probe(whole).format))
            }
            #expect(log.warnings.isEmpty)
        }
    }

    @Test("at none a cut file comes out at full size: the rows that arrived, the rest missing, and one warning",
        arguments: encodings.map(\.name))
    func truncationDecoded(name: String) throws {
        let whole = try Self.encoded(name)
        let intact = try Registry.standard.decode(whole)
        let (image, warnings) = try Self.decode(Array(whole.prefix(whole.count * 6 / 10)), failOn: .none)
        #expect(image.size == intact.size)
        #expect(warnings.count == 1)
        #expect(warnings.first?.damage == .truncated)
        #expect(warnings.first?.format == (try ImageProbe.probe(whole).format))
        // BMP stores rows bottom-up: what arrived is the bottom of the picture.
        let arrivedRow = name == "bmp" ? intact.height - 2 : 1
        let missingRow = name == "bmp" ? 1 : intact.height - 2
        #expect(ImageComparison.rowDifference(image, intact, row: arrivedRow) < 6, "\(name): a row that arrived matches")
        let missing = image.pixel(x: intact.width / 2, y: missingRow)
        if name == "progressive-jpeg" {
            // Its first scans cover the whole picture: the bottom is there, coarser.
            #expect(!image.hasAlpha && image != intact)
        } else if name == "jpeg" {
            #expect(missing == RGBA(r: 128, g: 128, b: 128, a: 255), "\(name): libjpeg fills grey")
        } else {
            #expect(missing.a == 0, "\(name): missing rows are transparent")
            #expect(image.hasAlpha)
        }
    }

    @Test("a cut PNG shrunk on load keeps its arrived rows and its reduced size")
    func truncatedPNGShrunkOnLoad() throws {
        let whole = try Self.encoded("png")
        let hint = PixelSize(width: 24, height: 16)
        let intact = try Registry.standard.decode(whole, options: DecodeOptions(sizeHint: hint))
        let (image, warnings) = try Self.decode(Array(whole.prefix(whole.count / 2)), failOn: .none, sizeHint: hint)
        #expect(image.size == intact.size)
        #expect(intact.width < Self.picture.width, "the reduced path ran")
        #expect(warnings.map(\.damage) == [.truncated])
        #expect(image.pixel(x: 3, y: 0) == intact.pixel(x: 3, y: 0))
        #expect(image.pixel(x: 3, y: image.height - 1).a == 0)
    }

    @Test("a cut interlaced PNG at none decodes what its passes hold")
    func truncatedInterlacedPNG() throws {
        let whole = try PNGEncoder(interlaced: true).encode(Self.picture, options: EncodeOptions(format: .png))
        let (image, warnings) = try Self.decode(Array(whole.prefix(whole.count * 8 / 10)), failOn: .none)
        #expect(image.size == Self.picture.size)
        #expect(warnings.map(\.damage) == [.truncated])
    }

    // MARK: - Errors and warnings in the data

    @Test("a JPEG marker in the middle of the scan: refused at warning, decoded past with a warning at error")
    func corruptJPEGScan() throws {
        var bytes = try Self.encoded("jpeg")
        bytes[bytes.count / 2] = 0xFF
        bytes[bytes.count / 2 + 1] = 0xD5  // RST5 where no restart interval is set
        #expect(performing: { try Registry.standard.decode(bytes) }, throws: { error in
            guard case .corrupt(.jpeg, _) = error as? DarkroomError else { return false }
            return true
        })
        let (image, warnings) = try Self.decode(bytes, failOn: .error)
        #expect(image.size == Self.picture.size)
        #expect(warnings.map(\.damage) == [.warning])
        #expect(warnings.first?.detail.isEmpty == false)
    }

    @Test("a PNG with a damaged IDAT: refused at error, decoded with an error warning at truncated")
    func corruptPNGData() throws {
        var bytes = try Self.encoded("png")
        let idat = try #require(Self.offset(of: Array("IDAT".utf8), in: bytes))
        bytes[idat + 4 + 200] ^= 0xFF  // past the zlib header, inside the image data
        for level in [FailOn.warning, .error] {
            #expect(throws: DarkroomError.self, "\(level)") { try Self.decode(bytes, failOn: level) }
        }
        let (image, warnings) = try Self.decode(bytes, failOn: .truncated)
        #expect(image.size == Self.picture.size)
        #expect(warnings.map(\.damage) == [.error])
    }

    @Test("an intact file sends no warning at any level")
    func intactFilesAreQuiet() throws {
        for (name, _) in Self.encodings {
            for level in FailOn.allCases {
                #expect(try Self.decode(try Self.encoded(name), failOn: level).warnings.isEmpty, "\(name) at \(level)")
            }
        }
    }

    // MARK: - Helpers

    static func offset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
