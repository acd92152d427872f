import DarkroomCore

// MARK: - TGAPixels

/// Turns stored TGA pixel values into RGBA8: colour values of 15, 16, 24 or 32 bits (B, G, R,
/// then A), grey values of 8 or 16 bits (Y, then A), and colour-map indices.
///
/// Alpha is kept as stored here; ``TGADecoder`` decides afterwards whether it is alpha.
struct TGAPixels {
    private let header: TGAHeader
    /// The colour map as RGBA, indexed from the header's first entry.
    private let map: [RGBA]

    init(header: TGAHeader, file: ByteReader) throws {
        self.header = header
        var map: [RGBA] = []
        if header.mapLength > 0 {
            map.reserveCapacity(header.mapLength)
            let size = header.bytesPerMapEntry
            for entry in 0..<header.mapLength {
                let at = header.mapOffset + entry * size
                map.append(Self.color(file.bytes, at: at, bits: header.mapEntryBits, alphaBits: header.alphaBits))
            }
        }
        self.map = map
    }

    /// The colour of the stored value at `at` (which the caller has checked lies in the file).
    /// - Throws: `DarkroomError.corrupt(_:detail:)` for a colour-map index outside the map.
    func rgba(_ bytes: UnsafeRawBufferPointer, at: Int, pixel: Int) throws -> RGBA {
        switch header.kind {
        case .trueColor:
            return Self.color(bytes, at: at, bits: header.depth, alphaBits: header.alphaBits)
        case .grey:
            let y = bytes[at]
            return RGBA(r: y, g: y, b: y, a: header.depth == 16 ? bytes[at + 1] : 255)
        case .colorMapped:
            let index = header.depth == 16 ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at])
            let entry = index - header.mapFirst
            guard entry >= 0, entry < map.count else {
                throw DarkroomError.corrupt(
                    .tga, detail: "pixel \(pixel % header.width),\(pixel / header.width) uses colour \(index), outside the map's \(header.mapFirst)…\(header.mapFirst + map.count - 1)")
            }
            return map[entry]
        }
    }

    /// A B-G-R(-A) value: 15/16 bits as `ARRRRRGG GGGBBBBB` little-endian (the top bit alpha
    /// only in a 16-bit value with alpha bits), 24 bits B, G, R, 32 bits B, G, R, A.
    private static func color(_ bytes: UnsafeRawBufferPointer, at: Int, bits: Int, alphaBits: Int) -> RGBA {
        switch bits {
        case 15, 16:
            let value = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            let alpha: UInt8 = bits == 16 && alphaBits > 0 ? (value & 0x8000 != 0 ? 255 : 0) : 255
            return RGBA(r: expand5(value >> 10), g: expand5(value >> 5), b: expand5(value), a: alpha)
        case 24:
            return RGBA(r: bytes[at + 2], g: bytes[at + 1], b: bytes[at])
        default:
            return RGBA(r: bytes[at + 2], g: bytes[at + 1], b: bytes[at], a: bytes[at + 3])
        }
    }

    /// Five bits to eight, as `v * 255 / 31` rounded (31 → 255).
    private static func expand5(_ value: Int) -> UInt8 { UInt8(((value & 31) * 255 + 15) / 31) }
}
