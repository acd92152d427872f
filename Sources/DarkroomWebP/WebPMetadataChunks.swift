import DarkroomCore

// MARK: - WebPMetadataChunks

/// Puts an ``ImageMetadata`` into an encoded WebP: the file becomes the extended format (a
/// `VP8X` chunk whose flags announce each part), with `ICCP` before the image data and `EXIF`
/// and `XMP ` after it, as the WebP container specification orders them. libwebp's encoder
/// writes the simple format (`VP8 `/`VP8L`) or, for lossy with alpha, `VP8X` + `ALPH` + `VP8 `.
///
/// ```swift
/// let tagged = try WebPMetadataChunks.inserting(ImageMetadata(xmp: packet), into: webp)
/// ```
enum WebPMetadataChunks {
    // VP8X flag bits (byte 0 of its payload).
    static let iccFlag: UInt8 = 0x20
    static let alphaFlag: UInt8 = 0x10
    static let exifFlag: UInt8 = 0x08
    static let xmpFlag: UInt8 = 0x04

    private struct Chunk {
        var type: String
        var payload: ArraySlice<UInt8>
    }

    /// `webp` with `metadata`'s chunks; `webp` itself when there is nothing to add.
    /// - Throws: `DarkroomError/encodeFailed(_:detail:)` when `webp` is not a RIFF WebP file
    ///   libwebp would write, or the result would pass RIFF's 4 GiB.
    static func inserting(_ metadata: ImageMetadata, into webp: [UInt8]) throws -> [UInt8] {
        guard !metadata.isEmpty else { return webp }
        var chunks = try self.chunks(of: webp).filter { !["ICCP", "EXIF", "XMP "].contains($0.type) }
        guard let first = chunks.first else { throw malformed("no image chunk") }
        var header: [UInt8]
        if first.type == "VP8X" {
            header = Array(first.payload)
            guard header.count >= 10 else { throw malformed("a short VP8X chunk") }
            chunks.removeFirst()
        } else {
            guard let (width, height, alpha) = imageSize(of: first) else { throw malformed("an unreadable \(first.type) header") }
            header = [alpha ? alphaFlag : 0, 0, 0, 0]
            header += le24(width - 1) + le24(height - 1)
        }
        header[0] &= ~(iccFlag | exifFlag | xmpFlag)
        var out: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)
        var ordered: [(String, ArraySlice<UInt8>)] = []
        if let icc = metadata.iccProfile {
            header[0] |= iccFlag
            ordered.append(("ICCP", icc[...]))
        }
        ordered += chunks.map { ($0.type, $0.payload) }
        if let exif = metadata.exif {
            header[0] |= exifFlag
            ordered.append(("EXIF", exif[...]))
        }
        if let xmp = metadata.xmp {
            header[0] |= xmpFlag
            ordered.append(("XMP ", xmp[...]))
        }
        append("VP8X", header[...], to: &out)
        for (type, payload) in ordered { append(type, payload, to: &out) }
        guard out.count - 8 <= Int(UInt32.max) else { throw malformed("more than 4 GiB") }
        let size = out.count - 8
        out[4..<8] = [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24 & 0xFF)]
        return out
    }

    // MARK: - Reading the encoder's output

    private static func chunks(of webp: [UInt8]) throws -> [Chunk] {
        try webp.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            guard r.starts(with: "RIFF", at: 0), r.starts(with: "WEBP", at: 8) else { throw malformed("no RIFF WEBP header") }
            var chunks: [Chunk] = []
            var offset = 12
            while offset < raw.count {
                guard let type = r.fourCC(offset), let size = r.u32le(offset + 4), offset + 8 + size <= raw.count else {
                    throw malformed("a chunk that runs past the end")
                }
                chunks.append(Chunk(type: type, payload: webp[offset + 8..<offset + 8 + size]))
                offset += 8 + size + (size & 1)
            }
            return chunks
        }
    }

    /// The canvas size and alpha of a simple-format image chunk: `VP8 ` (a key frame's 14-bit
    /// sides after the start code) or `VP8L` (14-bit sides minus one, then the alpha bit).
    private static func imageSize(of chunk: Chunk) -> (Int, Int, Bool)? {
        let bytes = Array(chunk.payload)
        return bytes.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            switch chunk.type {
            case "VP8 ":
                guard r.u8(3) == 0x9D, r.u8(4) == 0x01, r.u8(5) == 0x2A, let w = r.u16le(6), let h = r.u16le(8) else { return nil }
                return (w & 0x3FFF, h & 0x3FFF, false)
            case "VP8L":
                guard r.u8(0) == 0x2F, let bits = r.u32le(1) else { return nil }
                return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1, bits >> 28 & 1 == 1)
            default:
                return nil
            }
        }
    }

    // MARK: - Writing

    private static func append(_ type: String, _ payload: ArraySlice<UInt8>, to out: inout [UInt8]) {
        let size = payload.count
        out += Array(type.utf8)
        out += [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24 & 0xFF)]
        out += payload
        if size & 1 == 1 { out.append(0) }
    }

    private static func le24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }

    private static func malformed(_ what: String) -> DarkroomError {
        .encodeFailed(.webp, detail: "cannot add metadata to libwebp's output: \(what)")
    }
}
