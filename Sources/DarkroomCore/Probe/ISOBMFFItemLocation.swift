// MARK: - ISO-BMFF items: location (iloc), type (iinf), grids

extension ISOBMFFHeaderParser {
    /// One `iloc` entry (ISO/IEC 14496-12 8.11.3): where an item's bytes are.
    struct ItemLocation {
        var id: Int
        /// 0: offsets into the file; 1: into the `idat` box; 2: into another item.
        var constructionMethod: Int
        var baseOffset: Int
        var extents: [(offset: Int, length: Int)]
    }

    /// Every entry of the `iloc` box in `meta`; `nil` without one.
    /// - Throws: ``DarkroomError/corrupt(_:detail:)`` when the box cannot be read to its last
    ///   entry (a field size other than 0, 4 or 8, a value of 2⁶³ or more, entries cut short),
    ///   as libavif and libheif refuse it too.
    static func itemLocations(meta: Box, in r: ByteReader, format: ImageFormat) throws -> [ItemLocation]? {
        guard let iloc = findBox("iloc", in: r, from: meta.start + 4, to: meta.end) else { return nil }
        func malformed(_ what: String) -> DarkroomError { .corrupt(format, detail: "the item locations ('iloc') \(what)") }
        guard let version = r.u8(iloc.start), version <= 2 else { throw malformed("have an unknown version") }
        guard let sizes = r.u8(iloc.start + 4), let moreSizes = r.u8(iloc.start + 5) else { throw malformed("are cut short") }
        let offsetSize = sizes >> 4, lengthSize = sizes & 0xF, baseOffsetSize = moreSizes >> 4
        let indexSize = version >= 1 ? moreSizes & 0xF : 0
        guard [offsetSize, lengthSize, baseOffsetSize, indexSize].allSatisfy({ [0, 4, 8].contains($0) }) else {
            throw malformed("use a field size other than 0, 4 or 8 bytes")
        }
        var offset = iloc.start + 6
        // A field of `size` bytes inside the box; nil past its end or at 2⁶³ and above.
        func number(_ size: Int) throws -> Int {
            defer { offset += size }
            let value: Int?
            switch size {
            case 0: value = 0
            case 2: value = offset + 2 <= iloc.end ? r.u16be(offset) : nil
            case 4: value = offset + 4 <= iloc.end ? r.u32be(offset) : nil
            default: value = offset + 8 <= iloc.end ? r.u64be(offset) : nil
            }
            guard let value else { throw malformed("are cut short or hold a value of 2⁶³ or more") }
            return value
        }
        let idSize = version < 2 ? 2 : 4
        let count = try number(idSize)
        // Extents whose fields all take 0 bytes cost no data: cap their number instead.
        let extentBytes = offsetSize + lengthSize + indexSize
        var extentsLeft = 1 << 20
        var locations: [ItemLocation] = []
        for _ in 0..<count {
            let id = try number(idSize)
            let method = version >= 1 ? try number(2) & 0xF : 0
            _ = try number(2)  // data reference index
            let base = try number(baseOffsetSize)
            let extentCount = try number(2)
            extentsLeft -= extentCount
            guard extentsLeft >= 0, extentBytes > 0 || extentCount <= 1 else { throw malformed("list more extents than data") }
            var extents: [(offset: Int, length: Int)] = []
            for _ in 0..<extentCount {
                _ = try number(indexSize)
                let start = try number(offsetSize)
                extents.append((start, try number(lengthSize)))
            }
            locations.append(ItemLocation(id: id, constructionMethod: method, baseOffset: base, extents: extents))
        }
        return locations
    }

    /// Refuses item data that lies outside the file (or outside its `idat` box) before a C
    /// library reads it. libgd gives libavif a reader that allocates whatever length an extent
    /// claims, and libavif merges an item's extents into one allocation of their summed
    /// length; libavif aborts the process when such an allocation fails (a 554-byte AVIF whose
    /// extent claimed 16 TiB killed the server).
    static func checkItemExtents(meta: Box, in r: ByteReader, format: ImageFormat) throws {
        guard let locations = try itemLocations(meta: meta, in: r, format: format) else { return }
        let idat = findBox("idat", in: r, from: meta.start + 4, to: meta.end)
        for location in locations {
            let area: Range<Int>, place: String
            switch location.constructionMethod {
            case 0: (area, place) = (0..<r.count, "file")
            case 1:
                guard let idat else {
                    throw DarkroomError.corrupt(format, detail: "item \(location.id) is stored in an 'idat' box the file does not have")
                }
                (area, place) = (idat.start..<idat.end, "'idat' box")
            default: continue  // inside other items, which are checked themselves
            }
            var total = 0
            for extent in location.extents {
                let (begin, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
                guard !overflow, begin <= area.count else {
                    throw DarkroomError.truncated(
                        format, detail: "item \(location.id)'s data starts past the end of the \(place) (\(area.count) bytes)")
                }
                let length = extent.length == 0 ? area.count - begin : extent.length
                guard length <= area.count - begin else {
                    throw DarkroomError.truncated(
                        format,
                        detail: "item \(location.id)'s data (\(length) bytes at byte \(begin)) runs past the end of the \(place) (\(area.count) bytes)")
                }
                total += length
                guard total <= area.count else {
                    throw DarkroomError.corrupt(
                        format, detail: "item \(location.id)'s extents add up to more bytes than the \(place) holds (\(area.count))")
                }
            }
        }
    }

    /// Where the first extent of item `item` lies in the file (the file offset for
    /// construction method 0, the `idat` offset for method 1), clipped to the data. `nil` when
    /// the item or its extent is not found.
    static func firstExtent(of item: Int, meta: Box, in r: ByteReader) -> Range<Int>? {
        guard let locations = try? itemLocations(meta: meta, in: r, format: .avif),
            let location = locations.first(where: { $0.id == item }),
            let (start, length) = location.extents.first, location.constructionMethod <= 1
        else { return nil }
        var origin = 0
        if location.constructionMethod == 1 {
            guard let idat = findBox("idat", in: r, from: meta.start + 4, to: meta.end) else { return nil }
            origin = idat.start
        }
        let (from, overflow) = origin.addingReportingOverflow(location.baseOffset)
        let (begin, overflow2) = from.addingReportingOverflow(start)
        guard !overflow, !overflow2, begin >= 0, begin < r.count else { return nil }
        // Length 0 means "to the end of the file".
        let available = r.count - begin
        return begin..<begin + (length == 0 ? available : min(length, available))
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
