// MARK: - TIFF pages

extension TIFFStructure {
    /// How many image directories (pages) the chain from the header holds, classic or BigTIFF:
    /// each directory's next-pointer followed until 0, a pointer out of the file, or one seen
    /// before (a loop), at most `limit`. 0 when the header is not TIFF.
    static func directoryCount(_ bytes: UnsafeRawBufferPointer, limit: Int = 65_536) -> Int {
        var count = 0
        walkDirectories(bytes, limit: limit) { _, _ in count += 1 }
        return count
    }

    /// The reduced-resolution copies of a first page of `size`, largest first: the later
    /// directories whose NewSubfileType (254) has bit 0 set and whose size is the first page's
    /// divided by one factor (each side within a pixel); or, when none is so marked, every later
    /// page when each halves the one before (ImageMagick's `PTIF:` marks its levels as pages;
    /// libvips' thumbnailer reads such files as pyramids too). At most 32 levels.
    static func reducedResolutions(_ bytes: UnsafeRawBufferPointer, of size: PixelSize) -> [ReducedResolution] {
        var marked: [ReducedResolution] = [], pages: [PixelSize] = []
        walkDirectories(bytes, limit: 256) { index, offset in
            guard index > 0, let fields = readIFD(bytes, at: offset), let w = fields.width, let h = fields.height, w > 0, h > 0
            else { pages.append(PixelSize(width: 0, height: 0)); return }
            pages.append(PixelSize(width: w, height: h))
            guard (fields.subfileType ?? 0) & 1 == 1, w < size.width || h < size.height else { return }
            let factor = Double(size.width) / Double(w)
            if abs(Double(size.height) / factor - Double(h)) <= 1 { marked.append(ReducedResolution(page: index, size: PixelSize(width: w, height: h))) }
        }
        if !marked.isEmpty { return Array(marked.sorted { $0.size.width > $1.size.width }.prefix(32)) }
        let later = pages.dropFirst()
        guard !later.isEmpty, later.count <= 32 else { return [] }
        var levels: [ReducedResolution] = []
        for (page, level) in later.enumerated().map({ ($0.offset + 1, $0.element) }) {
            let divisor = Double(1 << page)
            guard abs(Double(size.width) / divisor - Double(level.width)) <= 1,
                abs(Double(size.height) / divisor - Double(level.height)) <= 1, level.width > 0, level.height > 0
            else { return [] }
            levels.append(ReducedResolution(page: page, size: level))
        }
        return levels
    }

    /// Calls `body` with each directory's index and offset along the chain from the header:
    /// each next-pointer followed until 0, a pointer out of the file, or one seen before (a
    /// loop), at most `limit` directories.
    static func walkDirectories(_ bytes: UnsafeRawBufferPointer, limit: Int, _ body: (Int, Int) -> Void) {
        guard let words = Words(bytes) else { return }
        let r = words.r, big = words.big
        var next = words.word(big ? 8 : 4)
        var seen: Set<Int> = []
        while let offset = next, offset != 0, seen.count < limit, seen.insert(offset).inserted {
            body(seen.count - 1, offset)
            guard let entries = big ? words.u64(offset) : words.u16(offset), entries <= 1 << 20 else { break }
            let pointerAt = offset + (big ? 8 + entries * 20 : 2 + entries * 12)
            guard pointerAt + (big ? 8 : 4) <= r.count else { break }
            next = words.word(pointerAt)
        }
    }
}
