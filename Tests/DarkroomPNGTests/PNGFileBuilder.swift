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

    /// The file for `rows` of raw (unfiltered) scanline bytes.
    func file(rows: [[UInt8]]) -> [UInt8] {
        precondition(rows.count == height)
        var ihdr = be32(width) + be32(height)
        ihdr += [bitDepth, colorType, 0, 0, 0]
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", ihdr)
        if let palette { bytes += chunk("PLTE", palette) }
        if let transparency { bytes += chunk("tRNS", transparency) }
        let scanlines: [UInt8] = rows.flatMap { row -> [UInt8] in [0] + row }  // filter 0 (None) on every row
        bytes += chunk("IDAT", Self.storedZlib(scanlines))
        bytes += chunk("IEND", [])
        return bytes
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
