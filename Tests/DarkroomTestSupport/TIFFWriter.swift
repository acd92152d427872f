// MARK: - Writing TIFF files for tests

/// Assembles uncompressed TIFF and BigTIFF files byte by byte from sample values, so that
/// every depth, sample format, colour model, layout and orientation can be decoded with
/// known pixels. Each page's directory comes before its pixel data, so cutting a file short
/// cuts pixels, not the directory.
///
/// ```swift
/// let page = TIFFWriter.Page(width: 2, height: 1, photometric: 1, samples: [0, 255])
/// let file = TIFFWriter(pages: [page]).bytes()
/// ```
public struct TIFFWriter {
    /// A tag's values, as written.
    public enum Value {
        case shorts([Int])
        case longs([Int])
        case rationals([(Int, Int)])
        case undefined([UInt8])
        /// A LONG naming where the page's first strip or tile is written (old-style JPEG's
        /// JPEGInterchangeFormat).
        case offsetOfFirstChunk
    }

    public struct Page {
        public var width: Int
        public var height: Int
        public var bitsPerSample = 8
        public var samplesPerPixel = 1
        public var photometric: Int
        public var sampleFormat = 1
        /// 1 contiguous, 2 separate planes.
        public var planar = 1
        public var extraSamples: [Int] = []
        public var orientation: Int?
        /// Rows per strip (`nil`: one strip).
        public var rowsPerStrip: Int?
        /// Tile width and height (multiples of 16): the page is tiled.
        public var tile: (width: Int, height: Int)?
        public var extraTags: [Int: Value] = [:]
        /// Every sample of the page, row by row, pixel by pixel (contiguous order whatever
        /// `planar` says).
        public var samples: [UInt64]
        /// Strips written as given instead of packing `samples` (subsampled YCbCr).
        public var rawStrips: [[UInt8]]?

        public init(
            width: Int, height: Int, bitsPerSample: Int = 8, samplesPerPixel: Int = 1, photometric: Int,
            sampleFormat: Int = 1, samples: [UInt64]
        ) {
            self.width = width
            self.height = height
            self.bitsPerSample = bitsPerSample
            self.samplesPerPixel = samplesPerPixel
            self.photometric = photometric
            self.sampleFormat = sampleFormat
            self.samples = samples
        }
    }

    public var pages: [Page]
    public var bigEndian = false
    public var bigTIFF = false

    /// A file of `pages`, little-endian classic TIFF unless told otherwise.
    public init(pages: [Page], bigEndian: Bool = false, bigTIFF: Bool = false) {
        self.pages = pages
        self.bigEndian = bigEndian
        self.bigTIFF = bigTIFF
    }

    // MARK: - Bytes

    /// The file.
    public func bytes() -> [UInt8] {
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        if bigTIFF {
            out += integer(43, 2) + integer(8, 2) + integer(0, 2) + integer(16, 8)
        } else {
            out += integer(42, 2) + integer(8, 4)
        }
        for (index, page) in pages.enumerated() {
            let chunks = page.rawStrips ?? self.chunks(of: page)
            let last = index == pages.count - 1
            out += directory(for: page, chunks: chunks, at: out.count, last: last)
            for chunk in chunks { out += chunk }
            if out.count % 2 == 1 { out.append(0) }
        }
        return out
    }

    /// One page's directory, its out-of-line values, and a next-directory pointer naming the
    /// byte after this page's pixel data (0 for the last page).
    private func directory(for page: Page, chunks: [[UInt8]], at start: Int, last: Bool) -> [UInt8] {
        var tags = page.extraTags
        tags[256] = .longs([page.width])
        tags[257] = .longs([page.height])
        tags[258] = .shorts(Array(repeating: page.bitsPerSample, count: page.samplesPerPixel))
        if !tags.keys.contains(259) { tags[259] = .shorts([1]) }
        tags[262] = .shorts([page.photometric])
        tags[277] = .shorts([page.samplesPerPixel])
        tags[284] = .shorts([page.planar])
        tags[339] = .shorts(Array(repeating: page.sampleFormat, count: page.samplesPerPixel))
        if !page.extraSamples.isEmpty { tags[338] = .shorts(page.extraSamples) }
        if let orientation = page.orientation { tags[274] = .shorts([orientation]) }
        let offsetTag = page.tile == nil ? 273 : 324, countTag = page.tile == nil ? 279 : 325
        if let tile = page.tile {
            tags[322] = .longs([tile.width])
            tags[323] = .longs([tile.height])
        } else {
            tags[278] = .longs([page.rowsPerStrip ?? page.height])
        }
        tags[countTag] = .longs(chunks.map(\.count))
        tags[offsetTag] = .longs(Array(repeating: 0, count: chunks.count))  // sized now, filled below

        let entrySize = bigTIFF ? 20 : 12, inline = bigTIFF ? 8 : 4
        let directorySize = (bigTIFF ? 8 : 2) + tags.count * entrySize + (bigTIFF ? 8 : 4)
        var outOfLine = 0
        for value in tags.values where size(of: value) > inline { outOfLine += (size(of: value) + 1) & ~1 }
        let dataStart = start + directorySize + outOfLine
        var offsets: [Int] = []
        var position = dataStart
        for chunk in chunks {
            offsets.append(position)
            position += chunk.count
        }
        if position % 2 == 1 { position += 1 }
        tags[offsetTag] = .longs(offsets)
        for (tag, value) in tags { if case .offsetOfFirstChunk = value { tags[tag] = .longs([offsets.first ?? 0]) } }

        var entries: [UInt8] = integer(tags.count, bigTIFF ? 8 : 2)
        var values: [UInt8] = []
        var valueAt = start + directorySize
        for tag in tags.keys.sorted() {
            let value = tags[tag]!
            let (type, count, bytes) = encode(value)
            entries += integer(tag, 2) + integer(type, 2) + integer(count, bigTIFF ? 8 : 4)
            if bytes.count <= inline {
                entries += bytes + Array(repeating: 0, count: inline - bytes.count)
            } else {
                entries += integer(valueAt, inline)
                values += bytes
                if bytes.count % 2 == 1 { values.append(0) }
                valueAt += (bytes.count + 1) & ~1
            }
        }
        entries += integer(last ? 0 : position, bigTIFF ? 8 : 4)
        return entries + values
    }

    private func size(of value: Value) -> Int { encode(value).bytes.count }

    private func encode(_ value: Value) -> (type: Int, count: Int, bytes: [UInt8]) {
        switch value {
        case let .shorts(v): (3, v.count, v.flatMap { integer($0, 2) })
        case let .longs(v): bigTIFF ? (16, v.count, v.flatMap { integer($0, 8) }) : (4, v.count, v.flatMap { integer($0, 4) })
        case let .rationals(v): (5, v.count, v.flatMap { integer($0.0, 4) + integer($0.1, 4) })
        case let .undefined(v): (7, v.count, v)
        case .offsetOfFirstChunk: encode(.longs([0]))
        }
    }

    // MARK: - Pixel data

    /// The strips or tiles of `page`, each plane's in turn when planes are separate.
    private func chunks(of page: Page) -> [[UInt8]] {
        let planes = page.planar == 2 ? page.samplesPerPixel : 1
        let perPixel = page.planar == 2 ? 1 : page.samplesPerPixel
        func sample(_ x: Int, _ y: Int, _ s: Int) -> UInt64 {
            page.samples[(y * page.width + x) * page.samplesPerPixel + s]
        }
        var result: [[UInt8]] = []
        for plane in 0..<planes {
            /// One row of `columns` pixels starting at `x0` (pixels past the edge are 0).
            func row(_ y: Int, from x0: Int, columns: Int) -> [UInt8] {
                var values: [UInt64] = []
                for x in x0..<x0 + columns {
                    for s in 0..<perPixel {
                        values.append(x < page.width && y < page.height ? sample(x, y, planes == 1 ? s : plane) : 0)
                    }
                }
                return pack(values, bits: page.bitsPerSample)
            }
            if let tile = page.tile {
                for y0 in stride(from: 0, to: page.height, by: tile.height) {
                    for x0 in stride(from: 0, to: page.width, by: tile.width) {
                        result.append((y0..<y0 + tile.height).flatMap { row($0, from: x0, columns: tile.width) })
                    }
                }
            } else {
                let rows = page.rowsPerStrip ?? page.height
                for y0 in stride(from: 0, to: page.height, by: rows) {
                    result.append((y0..<min(page.height, y0 + rows)).flatMap { row($0, from: 0, columns: page.width) })
                }
            }
        }
        return result
    }

    /// Samples in the file's byte order (8…64 bits), or packed most significant bit first
    /// (other depths), the row padded to a whole byte.
    private func pack(_ values: [UInt64], bits: Int) -> [UInt8] {
        if bits % 8 == 0 { return values.flatMap { integer(Int(truncatingIfNeeded: $0), bits / 8) } }
        var bytes = [UInt8](repeating: 0, count: (values.count * bits + 7) / 8)
        var bit = 0
        for value in values {
            for i in (0..<bits).reversed() {
                if (value >> UInt64(i)) & 1 == 1 { bytes[bit >> 3] |= 0x80 >> UInt8(bit & 7) }
                bit += 1
            }
        }
        return bytes
    }

    /// `value`'s low `width` bytes in the file's byte order.
    func integer(_ value: Int, _ width: Int) -> [UInt8] {
        let little = (0..<width).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: Int64(value)) >> UInt64(8 * $0)) }
        return bigEndian ? little.reversed() : little
    }
}
