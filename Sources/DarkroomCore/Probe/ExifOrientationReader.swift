// MARK: - EXIF / TIFF orientation

/// Reads the orientation tag (274) and, for TIFF files, the size tags from a TIFF structure
/// (the body of an EXIF block, or a whole TIFF file).
enum TIFFStructure {
    struct Fields {
        var width: Int?
        var height: Int?
        var orientation: Orientation = .up
        /// Whether the orientation tag is present with a value 1…8 (so that other sources, XMP,
        /// are not consulted).
        var hasOrientation = false
        /// Where the `ICCProfile` field's bytes are (tag 34675, `UNDEFINED`), when present.
        var iccProfile: Range<Int>?
        /// TIFF files: PhotometricInterpretation (262), the first BitsPerSample (258),
        /// SamplesPerPixel (277), the first ExtraSamples value (338), TileWidth and TileLength
        /// (322, 323).
        var photometric: Int?
        var bitsPerSample: Int?
        var samplesPerPixel: Int?
        var extraSample: Int?
        var tileWidth: Int?
        var tileLength: Int?
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
        // libtiff (which decodes TIFF files) keeps the first of duplicated tags; so does this,
        // or a file could show one size here and decode at another.
        var seen: Set<Int> = []
        for index in 0..<min(entries, 512) {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry), let type = u16(entry + 2) else { break }
            guard seen.insert(tag).inserted else { continue }
            // One integer of any type libtiff converts (BYTE, SHORT, LONG, signed or not, stored
            // at the start of the value field); a negative one or a list is no value.
            var value: Int?
            if u32(entry + 4) == 1 {
                switch type {
                case 1, 6: value = r.u8(entry + 8)
                case 3, 8: value = u16(entry + 8)
                case 4, 9: value = u32(entry + 8)
                default: value = nil
                }
                if let raw = value, (type == 6 && raw >= 0x80) || (type == 8 && raw >= 0x8000) || (type == 9 && raw >= 0x8000_0000) {
                    value = nil
                }
            }
            /// The first SHORT or LONG of a list: in the entry when the list fits in 4 bytes.
            func first() -> Int? {
                guard let count = u32(entry + 4), count >= 1, type == 3 || type == 4 else { return value }
                let width = type == 3 ? 2 : 4
                let at = count * width <= 4 ? entry + 8 : u32(entry + 8)
                return at.flatMap { type == 3 ? u16($0) : u32($0) }
            }
            switch tag {
            case 256: fields.width = value
            case 257: fields.height = value
            case 258: fields.bitsPerSample = first()
            case 262: fields.photometric = value
            case 277: fields.samplesPerPixel = value
            case 322: fields.tileWidth = value
            case 323: fields.tileLength = value
            case 338: fields.extraSample = first()
            case 274:
                if let value, (1...8).contains(value) {
                    fields.orientation = Orientation(exifValue: value)
                    fields.hasOrientation = true
                }
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
        orientationTag(inExif: payload) ?? .up
    }

    /// The orientation an EXIF payload records, `nil` when it records none (or no valid one).
    static func orientationTag(inExif payload: UnsafeRawBufferPointer) -> Orientation? {
        let r = ByteReader(payload)
        let start = r.starts(with: "Exif\0\0", at: 0) ? 6 : 0
        guard let body = r.slice(start, payload.count - start), let fields = readIFD0(body), fields.hasOrientation else { return nil }
        return fields.orientation
    }
}
