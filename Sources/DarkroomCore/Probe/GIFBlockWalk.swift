// MARK: - GIFBlockWalk

/// Walks a GIF's blocks (without decoding any LZW data) up to its trailer or the end of the
/// data: how many frames it has and whether a graphic control extension marks a transparent
/// colour. Used by the probe (``ImageHeader/frameCount``) and by ``ImageDetails``.
///
/// ```swift
/// GIFBlockWalk.scan(ByteReader(raw)).frames  // 24 for a 24-frame animation
/// ```
enum GIFBlockWalk {
    struct Scan {
        var frames = 0
        var hasTransparency = false
    }

    static func scan(_ r: ByteReader) -> Scan {
        var scan = Scan()
        guard let packed = r.u8(10) else { return scan }
        var offset = 13 + (packed & 0x80 != 0 ? 3 << ((packed & 7) + 1) : 0)
        /// The offset after a run of data sub-blocks starting at `start`, or `nil` when cut.
        func skipSubBlocks(_ start: Int) -> Int? {
            var at = start
            while let size = r.u8(at) {
                if size == 0 { return at + 1 }
                at += 1 + size
            }
            return nil
        }
        walk: while let introducer = r.u8(offset) {
            switch introducer {
            case 0x21:
                guard let label = r.u8(offset + 1) else { break walk }
                if label == 0xF9, let flags = r.u8(offset + 3), flags & 1 != 0 { scan.hasTransparency = true }
                guard let next = skipSubBlocks(offset + 2) else { break walk }
                offset = next
            case 0x2C:
                scan.frames += 1
                guard let local = r.u8(offset + 9) else { break walk }
                let table = local & 0x80 != 0 ? 3 << ((local & 7) + 1) : 0
                // Descriptor (10 bytes), local colour table, LZW minimum code size, data.
                guard let next = skipSubBlocks(offset + 10 + table + 1) else { break walk }
                offset = next
            default:
                break walk  // the trailer (0x3B), or bytes that are not a block
            }
        }
        return scan
    }
}
