// MARK: - Building PNG files by hand

/// Writes PNG files byte by byte (IHDR, PLTE, tRNS, IDAT with stored zlib blocks, IEND) so tests
/// can cover colour types and bit depths that no encoder at hand produces.
struct PNGFileBuilder {
    var width: Int
    var height: Int
    var bitDepth: UInt8
    var colorType: UInt8
    var palette: [UInt8]? = nil
    var transparency: [UInt8]? = nil

    /// The file for `rows` of raw (unfiltered) scanline bytes, row `y` written with filter type
    /// `filters[y % filters.count]` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth; 8-bit samples).
    func file(rows: [[UInt8]], filters: [UInt8] = [0]) -> [UInt8] {
        precondition(rows.count == height)
        var ihdr = be32(width) + be32(height)
        ihdr += [bitDepth, colorType, 0, 0, 0]
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", ihdr)
        if let palette { bytes += chunk("PLTE", palette) }
        if let transparency { bytes += chunk("tRNS", transparency) }
        let bpp = max(1, Int(bitDepth) * Self.samples(colorType) / 8)
        var scanlines: [UInt8] = []
        for (y, row) in rows.enumerated() {
            let filter = filters[y % filters.count]
            scanlines += [filter] + Self.filtered(row, above: y > 0 ? rows[y - 1] : nil, filter: filter, bpp: bpp)
        }
        bytes += chunk("IDAT", Self.storedZlib(scanlines))
        bytes += chunk("IEND", [])
        return bytes
    }

    // MARK: - Filters (PNG spec 9.2–9.4)

    static func samples(_ colorType: UInt8) -> Int {
        switch colorType {
        case 2: 3
        case 4: 2
        case 6: 4
        default: 1
        }
    }

    /// `row` filtered with `filter`, given the unfiltered row above it (nil: the top row).
    static func filtered(_ row: [UInt8], above: [UInt8]?, filter: UInt8, bpp: Int) -> [UInt8] {
        row.indices.map { i in
            let a = i >= bpp ? Int(row[i - bpp]) : 0
            let b = above.map { Int($0[i]) } ?? 0
            let c = i >= bpp ? above.map { Int($0[i - bpp]) } ?? 0 : 0
            let predicted: Int
            switch filter {
            case 1: predicted = a
            case 2: predicted = b
            case 3: predicted = (a + b) / 2
            case 4:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: predicted = 0
            }
            return UInt8(truncatingIfNeeded: Int(row[i]) - predicted)
        }
    }

    // MARK: - Chunks and checksums

    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(Self.crc32(typed)))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int(b << 16 | a))
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    private static func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
}
