// MARK: - PNGChunks

/// Builds damaged PNGs for the tests: chunks libpng would *warn* about (and, through
/// libgd, print to stderr) rather than reject.
enum PNGChunks {
    /// The offset of the first chunk of `type` (its length field), or `nil`.
    static func offset(of type: String, in png: [UInt8]) -> Int? {
        var offset = 8
        while offset + 8 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            if String(decoding: png[offset + 4..<offset + 8], as: UTF8.self) == type { return offset }
            offset += 12 + length
        }
        return nil
    }

    /// Copies of `png` with one warning-worthy chunk inserted after IHDR (or before IEND).
    static func withWarnings(_ png: [UInt8]) -> [[UInt8]] {
        let afterHeader = 8 + 25
        let end = offset(of: "IEND", in: png)!
        func inserting(_ chunk: [UInt8], at position: Int) -> [UInt8] {
            Array(png[..<position]) + chunk + Array(png[position...])
        }
        return [
            inserting(chunk("teSt", Array("hello".utf8), crc: 1234), at: afterHeader),  // bad CRC
            inserting(chunk("sRGB", [7]), at: afterHeader),                              // invalid intent
            inserting(chunk("iCCP", Array("foo".utf8) + [0, 0, 0x78, 0x9C]), at: afterHeader),  // too short
            inserting(chunk("gAMA", [0, 0, 0, 0]), at: afterHeader),                     // invalid gamma
            inserting(chunk("tRNS", [0, 1, 0, 2, 0, 3]), at: end),                       // out of place
            inserting(chunk("tEXt", Array("Comment".utf8) + [0] + Array("x".utf8), crc: 0), at: end),
        ]
    }

    /// One chunk; `crc` overrides the correct CRC.
    static func chunk(_ type: String, _ data: [UInt8], crc: UInt32? = nil) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc ?? crc32(body))
    }

    private static func be32(_ v: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(v >> (8 * $0) & 0xFF) } }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
