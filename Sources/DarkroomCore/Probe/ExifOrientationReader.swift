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
        /// NewSubfileType (254): bit 0 marks a reduced-resolution copy.
        var subfileType: Int?
    }

    /// Parses IFD0 of a TIFF structure, classic or BigTIFF. Returns `nil` when the byte-order
    /// mark or IFD offset is bad.
    static func readIFD0(_ bytes: UnsafeRawBufferPointer) -> Fields? { readIFD(bytes, at: nil) }

    /// Parses the directory at `offset` (IFD0 when `nil`) of a TIFF structure.
    static func readIFD(_ bytes: UnsafeRawBufferPointer, at offset: Int?) -> Fields? {
        guard let words = Words(bytes) else { return nil }
        let r = words.r, big = words.big
        func u16(_ at: Int) -> Int? { words.u16(at) }
        func u32(_ at: Int) -> Int? { words.u32(at) }
        func u64(_ at: Int) -> Int? { words.u64(at) }
        // Classic TIFF: 12-byte entries with 4-byte counts and values; BigTIFF (43): 20-byte
        // entries with 8-byte counts and values.
        let entrySize = big ? 20 : 12, valueAt = big ? 12 : 8, inlineBytes = big ? 8 : 4
        func word(_ at: Int) -> Int? { words.word(at) }
        guard let ifd = offset ?? word(big ? 8 : 4), let entries = big ? u64(ifd) : u16(ifd) else { return nil }
        var fields = Fields()
        // libtiff (which decodes TIFF files) keeps the first of duplicated tags; so does this,
        // or a file could show one size here and decode at another.
        var seen: Set<Int> = []
        for index in 0..<min(entries, 512) {
            let entry = ifd + (big ? 8 : 2) + index * entrySize
            guard let tag = u16(entry), let type = u16(entry + 2) else { break }
            guard seen.insert(tag).inserted else { continue }
            // One integer of any type libtiff converts (BYTE, SHORT, LONG, LONG8, signed or
            // not, stored at the start of the value field); a negative one or a list is no value.
            var value: Int?
            if word(entry + 4) == 1 {
                switch type {
                case 1, 6: value = r.u8(entry + valueAt)
                case 3, 8: value = u16(entry + valueAt)
                case 4, 9: value = u32(entry + valueAt)
                case 16 where big: value = u64(entry + valueAt)
                default: value = nil
                }
                if let raw = value, (type == 6 && raw >= 0x80) || (type == 8 && raw >= 0x8000) || (type == 9 && raw >= 0x8000_0000) {
                    value = nil
                }
            }
            /// The first SHORT or LONG of a list: in the entry when the list fits in it.
            func first() -> Int? {
                guard let count = word(entry + 4), count >= 1, type == 3 || type == 4 else { return value }
                let width = type == 3 ? 2 : 4
                let at = count <= inlineBytes / width ? entry + valueAt : word(entry + valueAt)
                return at.flatMap { type == 3 ? u16($0) : u32($0) }
            }
            switch tag {
            case 254: fields.subfileType = value
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
                guard type == 7, let count = word(entry + 4), count > 0 else { break }
                let start = count <= inlineBytes ? entry + valueAt : word(entry + valueAt)
                if let start, count <= r.count, start <= r.count - count { fields.iccProfile = start..<start + count }
            default: break
            }
        }
        return fields
    }

    /// A TIFF structure's integers read in its byte order ("II" or "MM"), and whether it is
    /// BigTIFF (magic 43, 8-byte offsets) rather than classic (42).
    struct Words {
        let r: ByteReader
        let little: Bool
        let big: Bool

        /// `nil` unless `bytes` starts with a byte-order mark and a classic or BigTIFF magic.
        init?(_ bytes: UnsafeRawBufferPointer) {
            let r = ByteReader(bytes)
            let little: Bool
            if r.starts(with: "II", at: 0) { little = true } else if r.starts(with: "MM", at: 0) { little = false } else { return nil }
            func u16(_ at: Int) -> Int? { little ? r.u16le(at) : r.u16be(at) }
            guard let magic = u16(2), magic == 42 || (magic == 43 && u16(4) == 8 && u16(6) == 0) else { return nil }
            (self.r, self.little, big) = (r, little, magic == 43)
        }

        func u16(_ at: Int) -> Int? { little ? r.u16le(at) : r.u16be(at) }
        func u32(_ at: Int) -> Int? { little ? r.u32le(at) : r.u32be(at) }
        /// A BigTIFF 8-byte value, `nil` when it does not fit an `Int`.
        func u64(_ at: Int) -> Int? {
            guard let a = u32(at), let b = u32(at + 4) else { return nil }
            let (high, low) = little ? (b, a) : (a, b)
            return high < 0x8000_0000 ? high << 32 | low : nil
        }
        /// An offset or count: 8 bytes in BigTIFF, 4 in classic TIFF.
        func word(_ at: Int) -> Int? { big ? u64(at) : u32(at) }
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
