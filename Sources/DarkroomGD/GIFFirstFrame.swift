import DarkroomCore

// MARK: - GIFFirstFrame

/// Where a GIF's first frame sits on its logical screen, found by walking the block
/// structure up to the end of that frame's image data.
///
/// libgd decodes only the first frame, at the frame's own size, and fills whatever its
/// LZW reader cannot find with colour 0 — a GIF cut in half decodes "successfully". This
/// walk runs first, so a GIF whose first frame's data blocks are cut short, or whose LZW
/// data ends before the frame's last pixel (``GIFPixelCount``), throws
/// ``DarkroomError/truncated(_:detail:)`` instead; and the decoder uses the frame's
/// position to place it on a screen-sized canvas, as browsers do.
///
/// ```swift
/// let frame = try GIFFirstFrame(bytes)   // e.g. 10×10 at (5, 5) on a 64×48 screen
/// ```
struct GIFFirstFrame: Equatable {
    var screenWidth: Int
    var screenHeight: Int
    var left: Int
    var top: Int
    var width: Int
    var height: Int

    /// `true` when the frame covers the whole logical screen.
    var fillsScreen: Bool {
        left == 0 && top == 0 && width == screenWidth && height == screenHeight
    }

    init(_ b: [UInt8]) throws {
        var cursor = Cursor(bytes: b)
        try cursor.need(13, "the screen descriptor")
        screenWidth = Int(b[6]) | Int(b[7]) << 8
        screenHeight = Int(b[8]) | Int(b[9]) << 8
        let screenFlags = b[10]
        cursor.offset = 13
        if screenFlags & 0x80 != 0 {
            try cursor.skip(3 << ((Int(screenFlags) & 7) + 1), "the global colour table")
        }
        while true {
            try cursor.need(1, "a block introducer")
            let introducer = b[cursor.offset]
            cursor.offset += 1
            switch introducer {
            case 0x21:  // extension: label, then data sub-blocks
                try cursor.skip(1, "an extension label")
                try cursor.skipSubBlocks("an extension")
            case 0x2C:  // image descriptor
                try cursor.need(9, "the image descriptor")
                let d = cursor.offset
                left = Int(b[d]) | Int(b[d + 1]) << 8
                top = Int(b[d + 2]) | Int(b[d + 3]) << 8
                width = Int(b[d + 4]) | Int(b[d + 5]) << 8
                height = Int(b[d + 6]) | Int(b[d + 7]) << 8
                let flags = b[d + 8]
                cursor.offset += 9
                if flags & 0x80 != 0 {
                    try cursor.skip(3 << ((Int(flags) & 7) + 1), "the local colour table")
                }
                try cursor.need(1, "the LZW code size")
                let codeSize = Int(b[cursor.offset])
                cursor.offset += 1
                let data = try cursor.joinedSubBlocks("the first frame's image data")
                guard width > 0, height > 0 else {
                    throw DarkroomError.invalidDimensions(.gif, width: width, height: height)
                }
                let pixels = try GIFPixelCount.count(lzw: data, minimumCodeSize: codeSize, limit: width * height)
                guard pixels >= width * height else {
                    throw DarkroomError.truncated(
                        .gif, detail: "the first frame's image data ends after \(pixels) of its \(width)x\(height) pixels")
                }
                guard left + width <= screenWidth, top + height <= screenHeight else {
                    throw DarkroomError.corrupt(
                        .gif, detail: "the first frame (\(width)x\(height) at \(left),\(top)) "
                            + "extends past the \(screenWidth)x\(screenHeight) screen")
                }
                return
            case 0x3B:
                throw DarkroomError.corrupt(.gif, detail: "the file ends (trailer) before any image")
            default:
                continue  // stray byte between blocks: skipped, as libgd and browsers do
            }
        }
    }

    // MARK: - Walking bytes

    private struct Cursor {
        let bytes: [UInt8]
        var offset = 0

        func need(_ count: Int, _ what: String) throws {
            guard offset + count <= bytes.count else {
                throw DarkroomError.truncated(.gif, detail: "the data ends after \(bytes.count) bytes, in \(what)")
            }
        }

        mutating func skip(_ count: Int, _ what: String) throws {
            try need(count, what)
            offset += count
        }

        /// Skips data sub-blocks (length byte + data) through the zero-length terminator.
        mutating func skipSubBlocks(_ what: String) throws {
            _ = try walkSubBlocks(what, keeping: false)
        }

        /// The data of the sub-blocks through the terminator, joined.
        mutating func joinedSubBlocks(_ what: String) throws -> [UInt8] {
            try walkSubBlocks(what, keeping: true)
        }

        private mutating func walkSubBlocks(_ what: String, keeping: Bool) throws -> [UInt8] {
            var data: [UInt8] = []
            while true {
                try need(1, what)
                let length = Int(bytes[offset])
                offset += 1
                if length == 0 { return data }
                try need(length, what)
                if keeping { data += bytes[offset..<(offset + length)] }
                offset += length
            }
        }
    }
}
