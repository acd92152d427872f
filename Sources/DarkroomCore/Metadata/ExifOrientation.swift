// MARK: - ExifOrientation

/// Reads and rewrites the orientation tag (274) of an EXIF block's first IFD, in either byte
/// order, without touching anything else in the block.
///
/// ```swift
/// ExifOrientation.read(exif)                        // .right
/// ExifOrientation.read(ExifOrientation.resettingToUp(exif))   // .up
/// ```
public enum ExifOrientation {
    /// Whether `exif` starts with a TIFF header (`II*\0` or `MM\0*`) whose first IFD lies inside it.
    public static func isTIFFStructure(_ exif: [UInt8]) -> Bool {
        exif.withUnsafeBytes { TIFFStructure.readIFD0($0) != nil }
    }

    /// The orientation `exif` (a TIFF structure, or one behind JPEG's `Exif\0\0`) records;
    /// `.up` when it records none.
    public static func read(_ exif: [UInt8]) -> Orientation {
        exif.withUnsafeBytes { TIFFStructure.orientation(inExif: $0) }
    }

    /// `exif` with every orientation entry of its first IFD set to 1 (top-left); unchanged when
    /// it has none or is not a TIFF structure. An entry of another type than SHORT, which
    /// readers would not trust anyway, becomes a SHORT.
    public static func resettingToUp(_ exif: [UInt8]) -> [UInt8] {
        var out = exif
        let little: Bool
        switch (exif.first, exif.dropFirst().first) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return exif
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= exif.count else { return nil }
            return little ? Int(exif[at]) | Int(exif[at + 1]) << 8 : Int(exif[at]) << 8 | Int(exif[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        func put16(_ value: Int, at: Int) {
            let (first, second) = little ? (value & 0xFF, value >> 8) : (value >> 8, value & 0xFF)
            out[at] = UInt8(first)
            out[at + 1] = UInt8(second)
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return exif }
        for index in 0..<min(entries, 512) {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry), entry + 12 <= exif.count else { break }
            guard tag == 274 else { continue }
            put16(3, at: entry + 2)      // SHORT
            out[entry + 4..<entry + 8] = little ? [1, 0, 0, 0] : [0, 0, 0, 1]   // count 1
            put16(1, at: entry + 8)      // top-left
            put16(0, at: entry + 10)
        }
        return out
    }
}
