// MARK: - AVIF / HEIF header

/// Finds the image spatial extents (`ispe`) in an ISO-BMFF file's `meta/iprp/ipco` boxes.
///
/// A file may hold several items (the primary image, grid tiles, thumbnails); the extent
/// associated with the primary item (`pitm` + `ipma`) is reported, else the largest one.
///
/// The primary item's rotation and mirroring properties (`irot`, then `imir`, as the format
/// orders them) become ``ImageHeader/orientation``, the EXIF value of the same transform, so
/// the stored size is `ispe`'s and the upright size is what a viewer shows. (libgd decodes
/// the stored pixels: libavif leaves the transform to its caller, and libgd asks libheif to
/// ignore it; the decoder then orients the image like any other.)
enum ISOBMFFHeaderParser {
    static func parse(_ r: ByteReader, format: ImageFormat) throws -> ImageHeader {
        guard let meta = findBox("meta", in: r, from: 0, to: r.count) else {
            throw DarkroomError.truncated(format, detail: "no 'meta' box with the image properties")
        }
        try checkTopLevelBoxes(in: r, format: format)
        try checkItemExtents(meta: meta, in: r, format: format)
        try checkSampleTables(in: r, format: format)
        guard let properties = itemProperties(r, meta: meta) else {
            throw DarkroomError.truncated(format, detail: "no 'iprp/ipco' item properties")
        }
        func extent(_ box: Box) -> (Int, Int)? {
            // A full box: version and flags, then two 32-bit sides, all inside the box.
            guard box.type == "ispe", box.end - box.start >= 12, let w = r.u32be(box.start + 4), let h = r.u32be(box.start + 8)
            else { return nil }
            return (w, h)
        }
        var size: (Int, Int)?
        var orientation = Orientation.up
        if let associated = properties.primary {
            size = associated.lazy.compactMap(extent).first
            orientation = Self.orientation(of: associated, in: r)
            // The item's own rotation and mirror win (HEIF applies them); without them the EXIF
            // item's orientation counts, then XMP's, as Pillow reads them.
            if !associated.contains(where: { $0.type == "irot" || $0.type == "imir" }) {
                let parts = ImageMetadata.isobmffParts(r)
                let exif = parts.exif.flatMap { bytes in bytes.withUnsafeBytes { TIFFStructure.orientationTag(inExif: $0) } }
                orientation = exif ?? parts.xmp.flatMap(XMPOrientation.read) ?? .up
            }
        }
        if size == nil {
            // No item association to follow: the largest extent is the primary image in practice.
            size = properties.all.compactMap(extent).max { $0.0.multipliedFullWidth(by: $0.1) < $1.0.multipliedFullWidth(by: $1.1) }
        }
        let hasAlpha = properties.all.contains { box in
            box.type == "auxC"
                && String(decoding: r.slice(box.start + 4, box.end - box.start - 4) ?? UnsafeRawBufferPointer(start: nil, count: 0), as: UTF8.self).contains("alpha")
        }
        guard let (width, height) = size else {
            throw DarkroomError.corrupt(format, detail: "no 'ispe' box gives the image size")
        }
        var header = ImageHeader(format: format, width: width, height: height, orientation: orientation, hasAlpha: hasAlpha)
        header.codedSize = properties.primary.flatMap { codedSize(of: $0, all: properties.all, meta: meta, in: r) }
        return header
    }

    /// The primary item's coded frame size from its `hvcC` or `av1C` (for AV1 without
    /// configuration OBUs, from the item's data); for a `grid` item, the grid's output size
    /// (the canvas its tiles are decoded into) or the largest HEVC tile frame, whichever is
    /// larger. See ``CodedFrameSize``.
    static func codedSize(of properties: [Box], all: [Box], meta: Box, in r: ByteReader) -> PixelSize? {
        if let item = primaryItem(r, meta: meta), itemType(of: item, meta: meta, in: r) == "grid" {
            let tiles = all.filter { $0.type == "hvcC" }.compactMap { CodedFrameSize.hevc(configuration: r, from: $0.start, to: $0.end) }
            return ([gridOutputSize(of: item, meta: meta, in: r)].compactMap { $0 } + tiles)
                .max { $0.width.multipliedFullWidth(by: $0.height) < $1.width.multipliedFullWidth(by: $1.height) }
        }
        if let hvcC = properties.first(where: { $0.type == "hvcC" }) {
            return CodedFrameSize.hevc(configuration: r, from: hvcC.start, to: hvcC.end)
        }
        guard let av1C = properties.first(where: { $0.type == "av1C" }) else { return nil }
        if av1C.end - av1C.start > 4, let size = CodedFrameSize.av1(obus: r, from: av1C.start + 4, to: av1C.end) {
            return size
        }
        guard let item = primaryItem(r, meta: meta), let data = firstExtent(of: item, meta: meta, in: r) else { return nil }
        return CodedFrameSize.av1(obus: r, from: data.lowerBound, to: data.upperBound)
    }

    // MARK: - Item properties

    /// The `ipco` property boxes in order (`ipma` indexes them from 1), and those associated
    /// with the primary item (`pitm` + `ipma`; `nil` when either is missing). `nil` without
    /// `iprp/ipco`.
    static func itemProperties(_ r: ByteReader, meta: Box) -> (all: [Box], primary: [Box]?)? {
        // 'meta' is a full box: 4 bytes of version and flags before its children.
        guard let iprp = findBox("iprp", in: r, from: meta.start + 4, to: meta.end),
            let ipco = findBox("ipco", in: r, from: iprp.start, to: iprp.end)
        else { return nil }
        var all: [Box] = []
        var offset = ipco.start
        while let box = nextBox(in: r, at: offset, limit: ipco.end) {
            all.append(box)
            offset = box.end
        }
        guard let primary = primaryItem(r, meta: meta),
            let ipma = findBox("ipma", in: r, from: iprp.start, to: iprp.end)
        else { return (all, nil) }
        let associated = associations(of: primary, ipma: ipma, in: r)
            .filter { $0 >= 1 && $0 <= all.count }.map { all[$0 - 1] }
        return (all, associated)
    }

    // MARK: - Rotation and mirroring

    /// The EXIF orientation of an item's `irot` (anticlockwise quarter turns, applied first)
    /// and `imir` (then a mirror: mode 0 exchanges top and bottom, 1 left and right).
    static func orientation(of properties: [Box], in r: ByteReader) -> Orientation {
        let turns = properties.first { $0.type == "irot" }.flatMap { r.u8($0.start) }.map { $0 & 3 } ?? 0
        let mirror = properties.first { $0.type == "imir" }.flatMap { r.u8($0.start) }.map { $0 & 1 }
        // Rows: quarter turns 0…3; columns: no mirror, top↔bottom (0), left↔right (1).
        let table: [[Orientation]] = [
            [.up, .downMirrored, .upMirrored],
            [.left, .leftMirrored, .rightMirrored],
            [.down, .upMirrored, .downMirrored],
            [.right, .rightMirrored, .leftMirrored],
        ]
        return table[turns][mirror.map { $0 + 1 } ?? 0]
    }

    /// The primary item's ID from the `pitm` box.
    static func primaryItem(_ r: ByteReader, meta: Box) -> Int? {
        guard let pitm = findBox("pitm", in: r, from: meta.start + 4, to: meta.end), let version = r.u8(pitm.start) else {
            return nil
        }
        return version == 0 ? r.u16be(pitm.start + 4) : r.u32be(pitm.start + 4)
    }

    /// The 1-based ipco indices associated with `item` in an `ipma` box.
    static func associations(of item: Int, ipma: Box, in r: ByteReader) -> [Int] {
        guard let version = r.u8(ipma.start), let flags = r.u8(ipma.start + 3),
            let entries = r.u32be(ipma.start + 4)
        else { return [] }
        var offset = ipma.start + 8
        for _ in 0..<min(entries, 65_536) {
            let id = version < 1 ? r.u16be(offset) : r.u32be(offset)
            offset += version < 1 ? 2 : 4
            guard let id, let count = r.u8(offset) else { return [] }
            offset += 1
            var indices: [Int] = []
            for _ in 0..<count {
                if flags & 1 == 1 {
                    guard let v = r.u16be(offset) else { return [] }
                    indices.append(v & 0x7FFF)
                    offset += 2
                } else {
                    guard let v = r.u8(offset) else { return [] }
                    indices.append(v & 0x7F)
                    offset += 1
                }
            }
            if id == item { return indices }
        }
        return []
    }

    struct Box {
        var type: String
        var start: Int  // first byte of the payload
        var end: Int    // one past the last byte
        /// The size the box's header claims when that runs past the data (the box is then
        /// cut at the end of the data); `nil` otherwise.
        var claimedPastData: Int? = nil
    }

    static func nextBox(in r: ByteReader, at offset: Int, limit: Int) -> Box? {
        guard offset + 8 <= limit, var size = r.u32be(offset), let type = r.fourCC(offset + 4) else { return nil }
        var header = 8
        if size == 1 {
            guard r.u32be(offset + 12) != nil else { return nil }
            size = r.u64be(offset + 8) ?? Int.max  // 2⁶³ and more: past any data, so truncated
            header = 16
        } else if size == 0 {
            size = limit - offset
        }
        guard size >= header, size <= limit - offset else {
            // A box running past the data: give what is there so the caller can report truncation.
            guard offset + header <= limit else { return nil }
            return Box(type: type, start: offset + header, end: limit, claimedPastData: size > limit - offset ? size : nil)
        }
        return Box(type: type, start: offset + header, end: offset + size)
    }

    /// Refuses a top-level box other than `mdat` whose declared size runs past the data:
    /// libavif reads such a box whole into memory through libgd's reader, which allocates
    /// what the size claims, and libavif aborts when that fails (a 492-byte AVIF whose 'meta'
    /// claimed 2 GiB killed the process under a 2 GiB address-space limit).
    static func checkTopLevelBoxes(in r: ByteReader, format: ImageFormat) throws {
        var offset = 0
        while let box = nextBox(in: r, at: offset, limit: r.count) {
            if let claimed = box.claimedPastData, box.type != "mdat" {
                let name = String(box.type.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "?" })
                throw DarkroomError.truncated(format, detail: "the '\(name)' box claims \(claimed) bytes but \(r.count - offset) remain")
            }
            offset = box.end
        }
    }

    static func findBox(_ type: String, in r: ByteReader, from: Int, to: Int) -> Box? {
        var offset = from
        while let box = nextBox(in: r, at: offset, limit: to) {
            if box.type == type { return box }
            offset = box.end
        }
        return nil
    }
}
