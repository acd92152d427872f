// MARK: - EXIF / TIFF orientation

/// Reads the orientation tag (274) and, for TIFF files, the size tags from a TIFF structure
/// (the body of an EXIF block, or a whole TIFF file).
enum TIFFStructure {
    struct Fields {
        var width: Int?
        var height: Int?
        var orientation: Orientation = .up
        /// Where the `ICCProfile` field's bytes are (tag 34675, `UNDEFINED`), when present.
        var iccProfile: Range<Int>?
    }

    /// Parses IFD0 of a TIFF structure. Returns `nil` when the byte-order mark or IFD offset is bad.
    static func readIFD0(_ bytes: UnsafeRawBufferPointer) -> Fields? {
        let r = ByteReader(bytes)
        let little: Bool
        if r.starts(with: "II", at: 0) { little = true } else if r.starts(with: "MM", at: 0) { little = false } else { return nil }
        func u16(_ at: Int) -> Int? { little ? r.u16le(at) : r.u16be(at) }
        func u32(_ at: Int) -> Int? { little ? r.u32le(at) : r.u32be(at) }
        guard let magic = u16(2), magic == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        var fields = Fields()
        for index in 0..<min(entries, 512) {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry), let type = u16(entry + 2) else { break }
            // SHORT (3) values sit in the first two bytes of the value field; LONG (4) in all four.
            let value: Int? = type == 3 ? u16(entry + 8) : (type == 4 ? u32(entry + 8) : nil)
            switch tag {
            case 256: fields.width = value
            case 257: fields.height = value
            case 274: if let value { fields.orientation = Orientation(exifValue: value) }
            case 34675:
                // UNDEFINED (7) bytes: stored in the entry when they fit in 4, else at an offset.
                guard type == 7, let count = u32(entry + 4), count > 0 else { break }
                let start = count <= 4 ? entry + 8 : u32(entry + 8)
                if let start, count <= r.count, start <= r.count - count { fields.iccProfile = start..<start + count }
            default: break
            }
        }
        return fields
    }

    /// The orientation in an EXIF payload (`"Exif\0\0"` + TIFF, or bare TIFF), `.up` when absent.
    static func orientation(inExif payload: UnsafeRawBufferPointer) -> Orientation {
        let r = ByteReader(payload)
        let start = r.starts(with: "Exif\0\0", at: 0) ? 6 : 0
        guard let body = r.slice(start, payload.count - start) else { return .up }
        return readIFD0(body)?.orientation ?? .up
    }
}
