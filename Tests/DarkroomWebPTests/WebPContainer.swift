import DarkroomCore

// MARK: - Building extended WebP files for tests

/// Assembles RIFF WebP files with a VP8X header (animations, EXIF) around bitstreams made by
/// the real encoder, following the WebP container specification.
enum WebPContainer {
    /// VP8X flag bits.
    static let animationFlag: UInt8 = 0x02
    static let exifFlag: UInt8 = 0x08
    static let alphaFlag: UInt8 = 0x10

    /// The image chunk ("VP8 " or "VP8L", header and padding included) of a simple WebP file.
    static func imageChunk(ofSimpleFile file: [UInt8]) -> [UInt8] {
        precondition(String(decoding: file[12..<16], as: UTF8.self) != "VP8X", "expected a simple WebP")
        return Array(file[12...])
    }

    /// One chunk: fourCC, little-endian size, payload, padding to an even size.
    static func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        var bytes = Array(fourCC.utf8) + le32(payload.count) + payload
        if payload.count % 2 == 1 { bytes.append(0) }
        return bytes
    }

    /// A complete file: RIFF header, VP8X, then `chunks`.
    static func file(canvasWidth: Int, canvasHeight: Int, flags: UInt8, chunks: [[UInt8]]) -> [UInt8] {
        let vp8x = chunk("VP8X", [flags, 0, 0, 0] + le24(canvasWidth - 1) + le24(canvasHeight - 1))
        let body = Array("WEBP".utf8) + vp8x + chunks.joined()
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// An ANIM chunk: transparent background, loop forever.
    static func animationHeader() -> [UInt8] {
        chunk("ANIM", [0, 0, 0, 0, 0, 0])
    }

    /// An ANMF chunk holding `imageChunk` at (x, y) (even), shown without blending.
    static func frame(x: Int, y: Int, width: Int, height: Int, imageChunk: [UInt8]) -> [UInt8] {
        let noBlend: UInt8 = 0x02
        let header = le24(x / 2) + le24(y / 2) + le24(width - 1) + le24(height - 1) + le24(100) + [noBlend]
        return chunk("ANMF", header + imageChunk)
    }

    /// An EXIF chunk whose big-endian TIFF IFD0 holds only the orientation tag.
    static func exif(orientation: Orientation) -> [UInt8] {
        let value = UInt8(orientation.rawValue)
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8,  // header, IFD0 at 8
            0, 1,  // one entry
            0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0,  // 274 SHORT ×1 = orientation
            0, 0, 0, 0]  // no next IFD
        return chunk("EXIF", tiff)
    }

    private static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    private static func le24(_ v: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
}
