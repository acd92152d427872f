import DarkroomBMP
import DarkroomCore

// MARK: - Writing BMP files for tests

/// Assembles BMP files byte by byte, following the Windows and OS/2 header layouts, so that
/// each header kind, depth and compression can be tested with known pixels.
///
/// ```swift
/// let file = BMPWriter(width: 7, height: 5, bitCount: 24, pixels: BMPWriter.rows(rows)).bytes()
/// ```
struct BMPWriter {
    /// The DIB header written: its size picks the layout.
    enum Header {
        case core  // 12 bytes: u16 width/height, BGR palette
        case info  // 40
        case v2  // 52: + RGB masks
        case v3  // 56: + alpha mask
        case v4  // 108
        case v5  // 124
        case os2(size: Int)  // 16…64: the 40-byte layout cut short or extended with zeros

        var size: Int {
            switch self {
            case .core: 12
            case .info: 40
            case .v2: 52
            case .v3: 56
            case .v4: 108
            case .v5: 124
            case let .os2(size): size
            }
        }
    }

    var header = Header.info
    var width: Int
    /// Negative for a top-down file.
    var height: Int
    var bitCount: Int
    var compression = 0
    /// R, G, B (and A) masks: inside a V2+ header, else written after the 40-byte header.
    var masks: [UInt32] = []
    /// Opaque palette colours (BGR0, or BGR for `.core`).
    var palette: [RGBA] = []
    /// The header's colours-used field; `nil` writes `palette.count`.
    var colorsUsed: Int?
    var pixels: [UInt8]
    /// Overrides the pixel data offset the header gives.
    var dataOffset: Int?

    /// The whole file.
    func bytes() -> [UInt8] {
        var dib = le32(header.size)
        if case .core = header {
            dib += le16(width) + le16(height) + le16(1) + le16(bitCount)
        } else {
            dib += le32(width) + le32(height) + le16(1) + le16(bitCount)
            dib += le32(compression) + le32(pixels.count) + le32(2835) + le32(2835)
            dib += le32(colorsUsed ?? palette.count) + le32(0)
            switch header {
            case .v2, .v3, .v4, .v5:
                let count = header.size == 52 ? 3 : 4
                for index in 0..<count { dib += le32(index < masks.count ? Int(masks[index]) : 0) }
            default:
                break
            }
            if case .v4 = header { dib += Array("BGRs".utf8) }
            if case .v5 = header { dib += Array("BGRs".utf8) }
            dib += [UInt8](repeating: 0, count: max(0, header.size - dib.count))
            dib = Array(dib.prefix(header.size))
        }
        var extra: [UInt8] = []
        if case .info = header { for mask in masks { extra += le32(Int(mask)) } }
        for colour in palette {
            extra += [colour.b, colour.g, colour.r]
            if case .core = header {} else { extra.append(0) }
        }
        let offset = dataOffset ?? 14 + dib.count + extra.count
        let fileHeader = Array("BM".utf8) + le32(14 + dib.count + extra.count + pixels.count) + le32(0) + le32(offset)
        return fileHeader + dib + extra + pixels
    }

    // MARK: - Pixel data

    /// Rows (first stored first) padded to 4 bytes each.
    static func rows(_ rows: [[UInt8]]) -> [UInt8] {
        rows.flatMap { row in row + [UInt8](repeating: 0, count: (4 - row.count % 4) % 4) }
    }

    /// Palette indices packed `bits` to a byte, most significant first.
    static func packed(_ indices: [Int], bits: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (indices.count * bits + 7) / 8)
        for (x, index) in indices.enumerated() {
            let bit = x * bits
            bytes[bit / 8] |= UInt8(index << (8 - bits - bit % 8))
        }
        return bytes
    }

    static func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    private func le16(_ v: Int) -> [UInt8] { Self.le16(v) }
    private func le32(_ v: Int) -> [UInt8] { Self.le32(v) }
}

// MARK: - Helpers

/// Probes and decodes BMP bytes the way the registry does.
func decodeBMP(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> Image {
    let header = try ImageProbe.probe(bytes)
    return try BMPDecoder().decode(bytes, header: header, options: options)
}

/// An image whose pixel (x, y) is `pixel(x, y)`; `hasAlpha` as given.
func image(width: Int, height: Int, hasAlpha: Bool = false, _ pixel: (Int, Int) -> RGBA) -> Image {
    Image(width: width, height: height, hasAlpha: hasAlpha) { p in
        for y in 0..<height {
            for x in 0..<width {
                let colour = pixel(x, y), i = (y * width + x) * 4
                p[i] = colour.r; p[i + 1] = colour.g; p[i + 2] = colour.b; p[i + 3] = colour.a
            }
        }
    }
}

/// Stored rows of `height` image rows, bottom row first (BMP's default order).
func bottomUp<T>(_ height: Int, _ row: (Int) -> T) -> [T] {
    (0..<height).reversed().map(row)
}

/// Only the alpha bytes of an image.
func alphaChannel(_ image: Image) -> [UInt8] {
    stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
}

/// The error `body` throws, which must be a ``DarkroomError``.
func darkroomError(_ body: () throws -> Image) -> DarkroomError? {
    do {
        _ = try body()
        return nil
    } catch let error as DarkroomError {
        return error
    } catch {
        return nil
    }
}
