import CGD
import DarkroomCore

// MARK: - PNGChunkFilter

/// Rewrites a PNG to the chunks libgd actually decodes — `IHDR`, `PLTE`, `tRNS`, `IDAT`,
/// `IEND` — after checking each one's length and CRC.
///
/// Why: libgd's PNG reader gives libpng an error handler but **no warning handler**, so
/// every libpng warning (a bad CRC in a `tEXt` chunk, an odd `iCCP` profile, a misplaced
/// `tRNS`) is printed to stderr. libgd ignores those ancillary chunks anyway, so dropping
/// them changes no pixel and leaves libpng nothing to warn about. Structural damage —
/// a chunk running past the end, a CRC mismatch in a kept chunk, no `IEND` — becomes a
/// ``DarkroomError`` here, before libgd allocates anything.
///
/// ```swift
/// let clean = try PNGChunkFilter.essentialChunks(bytes) // same pixels, no libpng warnings
/// ```
enum PNGChunkFilter {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func essentialChunks(_ bytes: [UInt8]) throws -> [UInt8] {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            throw DarkroomError.corrupt(.png, detail: "missing the PNG signature")
        }
        var output = signature
        output.reserveCapacity(bytes.count)
        var state = State()
        var offset = 8
        while true {
            let chunk = try readChunk(bytes, at: offset)
            if try state.keeps(chunk, in: bytes) {
                try verifyCRC(bytes, chunk)
                output.append(contentsOf: bytes[chunk.start..<chunk.end])
            }
            if chunk.type == "IEND" { return output }
            offset = chunk.end
        }
    }

    // MARK: - Chunks

    private struct Chunk {
        var type: String
        var start: Int       // offset of the length field
        var dataLength: Int
        var dataStart: Int { start + 8 }
        var end: Int { start + 12 + dataLength }
        var isCritical: Bool { type.utf8.first.map { $0 & 0x20 == 0 } ?? false }
    }

    private static func readChunk(_ b: [UInt8], at offset: Int) throws -> Chunk {
        guard offset + 8 <= b.count else {
            throw DarkroomError.truncated(
                .png, detail: "the data ends after \(b.count) bytes, before the IEND chunk")
        }
        let length = Int(b[offset]) << 24 | Int(b[offset + 1]) << 16 | Int(b[offset + 2]) << 8 | Int(b[offset + 3])
        let typeBytes = b[offset + 4..<offset + 8]
        guard typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
            throw DarkroomError.corrupt(.png, detail: "invalid chunk type at offset \(offset)")
        }
        let chunk = Chunk(type: String(decoding: typeBytes, as: UTF8.self), start: offset, dataLength: length)
        guard length <= 0x7FFF_FFFF else {
            throw DarkroomError.corrupt(.png, detail: "\(chunk.type) chunk at offset \(offset) claims \(length) bytes")
        }
        guard chunk.end <= b.count else {
            throw DarkroomError.truncated(
                .png, detail: "\(chunk.type) chunk at offset \(offset) needs \(length + 12) bytes, "
                    + "only \(b.count - offset) remain")
        }
        return chunk
    }

    private static func verifyCRC(_ b: [UInt8], _ chunk: Chunk) throws {
        let computed = b.withUnsafeBufferPointer { p in
            crc32(0, p.baseAddress! + chunk.start + 4, UInt32(chunk.dataLength + 4))
        }
        let e = chunk.end - 4
        let stored = UInt(b[e]) << 24 | UInt(b[e + 1]) << 16 | UInt(b[e + 2]) << 8 | UInt(b[e + 3])
        guard UInt(computed) == stored else {
            throw DarkroomError.corrupt(
                .png, detail: "CRC mismatch in the \(chunk.type) chunk at offset \(chunk.start)")
        }
    }

    // MARK: - Which chunks to keep

    /// Tracks order so that only chunks libpng accepts without a warning are kept.
    private struct State {
        var colorType: UInt8?
        var paletteEntries = 0
        var seenIDAT = false
        var seenTRNS = false

        mutating func keeps(_ chunk: Chunk, in bytes: [UInt8]) throws -> Bool {
            switch chunk.type {
            case "IHDR":
                guard colorType == nil, chunk.dataLength == 13 else {
                    throw DarkroomError.corrupt(.png, detail: "IHDR chunk is duplicated or not 13 bytes")
                }
                colorType = bytes[chunk.dataStart + 9]
                return true
            case "IDAT", "IEND":
                try requireHeader(chunk)
                seenIDAT = seenIDAT || chunk.type == "IDAT"
                return true
            case "PLTE":
                try requireHeader(chunk)
                guard colorType == 3 else { return false }  // only a suggestion in RGB images
                guard chunk.dataLength % 3 == 0, (3...768).contains(chunk.dataLength), !seenIDAT else {
                    throw DarkroomError.corrupt(.png, detail: "PLTE chunk of \(chunk.dataLength) bytes is invalid")
                }
                paletteEntries = chunk.dataLength / 3
                return true
            case "tRNS":
                try requireHeader(chunk)
                defer { seenTRNS = true }
                guard !seenTRNS, !seenIDAT else { return false }
                switch colorType {
                case 0: return chunk.dataLength == 2
                case 2: return chunk.dataLength == 6
                case 3: return paletteEntries > 0 && (1...paletteEntries).contains(chunk.dataLength)
                default: return false
                }
            default:
                if chunk.isCritical {
                    throw DarkroomError.corrupt(.png, detail: "unknown critical chunk \(chunk.type)")
                }
                return false
            }
        }

        private func requireHeader(_ chunk: Chunk) throws {
            guard colorType != nil else {
                throw DarkroomError.corrupt(.png, detail: "\(chunk.type) chunk before IHDR")
            }
        }
    }
}
