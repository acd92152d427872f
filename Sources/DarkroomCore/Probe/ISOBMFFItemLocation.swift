// MARK: - ISO-BMFF items: location (iloc), type (iinf), grids

extension ISOBMFFHeaderParser {
    /// Where the first extent of item `item` lies in the file (`iloc`, ISO/IEC 14496-12
    /// 8.11.3): the file offset (construction method 0) or the `idat` offset (method 1),
    /// clipped to the data. `nil` when the item or its extent is not found.
    static func firstExtent(of item: Int, meta: Box, in r: ByteReader) -> Range<Int>? {
        guard let iloc = findBox("iloc", in: r, from: meta.start + 4, to: meta.end),
            let version = r.u8(iloc.start), version <= 2,
            let sizes = r.u8(iloc.start + 4), let moreSizes = r.u8(iloc.start + 5)
        else { return nil }
        let offsetSize = sizes >> 4, lengthSize = sizes & 0xF, baseOffsetSize = moreSizes >> 4
        let indexSize = version >= 1 ? moreSizes & 0xF : 0
        var offset = iloc.start + 6
        func number(_ size: Int) -> Int? {
            defer { offset += size }
            switch size {
            case 0: return 0
            case 4: return r.u32be(offset)
            case 8: return r.u64be(offset)
            default: return nil
            }
        }
        func short() -> Int? { defer { offset += 2 }; return r.u16be(offset) }
        guard let count = version < 2 ? short() : number(4) else { return nil }
        for _ in 0..<min(count, 65_536) {
            guard let id = version < 2 ? short() : number(4) else { return nil }
            var method = 0
            if version >= 1 {
                guard let value = short() else { return nil }
                method = value & 0xF
            }
            guard short() != nil, let base = number(baseOffsetSize), let extents = short() else { return nil }
            var first: (Int, Int)?
            for index in 0..<extents {
                guard number(indexSize) != nil, let start = number(offsetSize), let length = number(lengthSize) else {
                    return nil
                }
                if index == 0 { first = (start, length) }
            }
            guard id == item else { continue }
            guard let (start, length) = first, method <= 1 else { return nil }
            var origin = 0
            if method == 1 {
                guard let idat = findBox("idat", in: r, from: meta.start + 4, to: meta.end) else { return nil }
                origin = idat.start
            }
            let (from, overflow) = origin.addingReportingOverflow(base)
            let (begin, overflow2) = from.addingReportingOverflow(start)
            guard !overflow, !overflow2, begin >= 0, begin < r.count else { return nil }
            // Length 0 means "to the end of the file".
            let available = r.count - begin
            return begin..<begin + (length == 0 ? available : min(length, available))
        }
        return nil
    }

    /// The four-character type of item `item` from `iinf`'s `infe` entries (version 2 or 3),
    /// e.g. `av01`, `hvc1`, `grid`.
    static func itemType(of item: Int, meta: Box, in r: ByteReader) -> String? {
        guard let iinf = findBox("iinf", in: r, from: meta.start + 4, to: meta.end), let version = r.u8(iinf.start) else {
            return nil
        }
        var offset = iinf.start + (version == 0 ? 6 : 8)
        while let infe = nextBox(in: r, at: offset, limit: iinf.end) {
            offset = infe.end
            guard infe.type == "infe", let infeVersion = r.u8(infe.start), infeVersion >= 2 else { continue }
            let id = infeVersion == 2 ? r.u16be(infe.start + 4) : r.u32be(infe.start + 4)
            let typeAt = infe.start + (infeVersion == 2 ? 8 : 10)
            if id == item { return r.fourCC(typeAt) }
        }
        return nil
    }

    /// A `grid` item's output size (ISO/IEC 23008-12 6.6.2.3.2: version, flags, rows − 1,
    /// columns − 1, then width and height in 16 bits, or 32 when flags bit 0 is set).
    static func gridOutputSize(of item: Int, meta: Box, in r: ByteReader) -> PixelSize? {
        guard let data = firstExtent(of: item, meta: meta, in: r), let flags = r.u8(data.lowerBound + 1) else { return nil }
        let wide = flags & 1 == 1
        let at = data.lowerBound + 4
        guard data.count >= (wide ? 12 : 8),
            let width = wide ? r.u32be(at) : r.u16be(at), let height = wide ? r.u32be(at + 4) : r.u16be(at + 2)
        else { return nil }
        return PixelSize(width: width, height: height)
    }
}
