import DarkroomCore

// MARK: - GIFStream

/// A GIF's structure, read block by block without decoding any LZW data: the logical screen,
/// the global colour table, the loop count (the NETSCAPE2.0 extension) and each frame's
/// descriptor, colour table, graphic control (delay, disposal, transparent index) and the
/// byte ranges of its LZW data.
///
/// A stream that ends early keeps the frames read whole and says so (``isTruncated``); a
/// frame whose data is cut keeps its ranges and is marked too.
///
/// ```swift
/// let stream = try GIFStream(bytes)
/// stream.frames.count      // 24
/// stream.loopCount         // 0 (forever)
/// ```
struct GIFStream {
    struct Frame {
        /// Where the frame's image descriptor (its 0x2C) starts.
        var descriptorOffset = 0
        var left = 0, top = 0, width = 0, height = 0
        var interlaced = false
        /// RGB triples: the frame's local table, else the global one.
        var palette: ArraySlice<UInt8>
        var transparentIndex: Int?
        /// Hundredths of a second.
        var delay = 0
        var disposal = 0
        var minimumCodeSize = 8
        /// The data sub-blocks' payloads (size bytes left out).
        var dataRanges: [Range<Int>] = []
        /// The data's sub-blocks run past the end of the file.
        var isCut = false
    }

    var screenWidth: Int
    var screenHeight: Int
    var frames: [Frame] = []
    /// 0 is forever; 1 when the file has no NETSCAPE2.0 extension (it plays once).
    var loopCount = 1
    /// The data ends inside a block (an extension, or a frame's descriptor or colour table):
    /// something was cut. Data that ends between blocks, without the trailer, is not cut.
    var isTruncated = false

    init(_ b: [UInt8]) throws {
        guard b.count >= 13 else { throw DarkroomError.truncated(.gif, detail: "the screen descriptor is cut short") }
        screenWidth = Int(b[6]) | Int(b[7]) << 8
        screenHeight = Int(b[8]) | Int(b[9]) << 8
        let screenFlags = Int(b[10])
        var at = 13
        var global: ArraySlice<UInt8> = []
        if screenFlags & 0x80 != 0 {
            let size = 3 << ((screenFlags & 7) + 1)
            guard at + size <= b.count else { throw DarkroomError.truncated(.gif, detail: "the global colour table is cut short") }
            global = b[at..<at + size]
            at += size
        }
        var control: (delay: Int, disposal: Int, transparent: Int?) = (0, 0, nil)
        /// The payload ranges of the sub-blocks starting at `start`, and the offset after them
        /// (`nil` when they run past the end).
        func subBlocks(from start: Int) -> (ranges: [Range<Int>], end: Int?) {
            var ranges: [Range<Int>] = []
            var at = start
            while at < b.count {
                let size = Int(b[at])
                if size == 0 { return (ranges, at + 1) }
                let end = at + 1 + size
                ranges.append(at + 1..<min(end, b.count))
                at = end
            }
            return (ranges, nil)
        }
        while true {
            guard at < b.count else { return }  // no trailer, but every block whole
            let introducer = b[at]
            switch introducer {
            case 0x21:
                guard at + 1 < b.count else { isTruncated = true; return }
                let label = b[at + 1]
                let (ranges, end) = subBlocks(from: at + 2)
                if label == 0xF9, let block = ranges.first, block.count >= 4 {
                    let flags = Int(b[block.lowerBound])
                    control.delay = Int(b[block.lowerBound + 1]) | Int(b[block.lowerBound + 2]) << 8
                    control.disposal = (flags >> 2) & 7
                    control.transparent = flags & 1 != 0 ? Int(b[block.lowerBound + 3]) : nil
                } else if label == 0xFF, ranges.count >= 2, ranges[0].count == 11,
                    String(decoding: b[ranges[0]], as: UTF8.self) == "NETSCAPE2.0", ranges[1].count >= 3,
                    b[ranges[1].lowerBound] == 1 {
                    loopCount = Int(b[ranges[1].lowerBound + 1]) | Int(b[ranges[1].lowerBound + 2]) << 8
                }
                guard let end else { isTruncated = true; return }
                at = end
            case 0x2C:
                guard at + 10 <= b.count else { isTruncated = true; return }
                let d = at + 1
                var frame = Frame(palette: global)
                frame.descriptorOffset = at
                frame.left = Int(b[d]) | Int(b[d + 1]) << 8
                frame.top = Int(b[d + 2]) | Int(b[d + 3]) << 8
                frame.width = Int(b[d + 4]) | Int(b[d + 5]) << 8
                frame.height = Int(b[d + 6]) | Int(b[d + 7]) << 8
                let flags = Int(b[d + 8])
                frame.interlaced = flags & 0x40 != 0
                at += 10
                if flags & 0x80 != 0 {
                    let size = 3 << ((flags & 7) + 1)
                    guard at + size <= b.count else { isTruncated = true; return }
                    frame.palette = b[at..<at + size]
                    at += size
                }
                guard at < b.count else { isTruncated = true; return }
                frame.minimumCodeSize = Int(b[at])
                (frame.delay, frame.disposal, frame.transparentIndex) = control
                control = (0, 0, nil)
                let (ranges, end) = subBlocks(from: at + 1)
                frame.dataRanges = ranges
                frame.isCut = end == nil
                frames.append(frame)
                guard let end else { isTruncated = true; return }
                at = end
            default:
                return  // the trailer (0x3B), or bytes that are not a block: the stream ends here
            }
        }
    }
}
