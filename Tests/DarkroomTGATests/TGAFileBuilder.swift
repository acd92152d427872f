import DarkroomCore

// MARK: - TGAFileBuilder

/// Writes small TGA files byte by byte, for the cases no installed tool writes: 15/16-bit
/// colour, grey with alpha, 16-bit colour-map indices, extension areas.
struct TGAFileBuilder {
    var imageType: UInt8
    var width: Int
    var height: Int
    var depth: UInt8
    var descriptor: UInt8 = 0x20  // top-left origin
    var map: (first: Int, entryBits: UInt8, entries: [[UInt8]])?
    /// Stored pixel values in file order, each `(depth + 7) / 8` bytes.
    var values: [[UInt8]] = []
    /// Run-length packets instead of `values`: (repeat count or raw values).
    var packets: [[UInt8]]?
    /// A TGA 2.0 extension area with this attributes type.
    var attributesType: UInt8?

    func bytes() -> [UInt8] {
        var out: [UInt8] = [0, map == nil ? 0 : 1, imageType]
        out += le16(map?.first ?? 0) + le16(map?.entries.count ?? 0) + [map?.entryBits ?? 0]
        out += le16(0) + le16(0) + le16(width) + le16(height) + [depth, descriptor]
        for entry in map?.entries ?? [] { out += entry }
        if let packets { for packet in packets { out += packet } } else { for value in values { out += value } }
        if let attributesType {
            let offset = out.count
            var area = [UInt8](repeating: 0, count: 495)
            area[0] = 0xEF
            area[1] = 0x01  // 495
            area[494] = attributesType
            out += area
            out += le32(offset) + le32(0) + Array("TRUEVISION-XFILE.".utf8) + [0]
        }
        return out
    }

    private func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    private func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
}

/// A 16-bit `ARRRRRGG GGGBBBBB` value, little-endian.
func rgb555(_ r: Int, _ g: Int, _ b: Int, alpha: Bool = false) -> [UInt8] {
    let v = (alpha ? 0x8000 : 0) | r << 10 | g << 5 | b
    return [UInt8(v & 0xFF), UInt8(v >> 8)]
}
