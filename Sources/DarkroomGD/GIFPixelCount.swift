import DarkroomCore

// MARK: - GIFPixelCount

/// Counts the pixels a GIF frame's LZW data decodes to, without decoding them: only the
/// length of each code-table string is kept.
///
/// libgd fills the pixels its LZW reader does not reach with colour 0, so a frame whose data
/// ends early (an end-of-information code after ten pixels of a 100×100 frame) would decode
/// "successfully" into a block of palette entry 0. Counting first turns that into
/// ``DarkroomError/truncated(_:detail:)``, as Pillow and ImageMagick report it.
///
/// ```swift
/// let pixels = try GIFPixelCount.count(lzw: data, minimumCodeSize: 8, limit: 100 * 100)
/// ```
enum GIFPixelCount {
    /// The number of pixels `lzw` (the frame's data sub-blocks joined) decodes to, counting
    /// at most to `limit`.
    /// - Throws: ``DarkroomError/corrupt(_:detail:)`` for a code size outside 1…11 or a code
    ///   that is neither in the table nor the next one to be added.
    static func count(lzw: [UInt8], minimumCodeSize: Int, limit: Int) throws -> Int {
        guard (1...11).contains(minimumCodeSize) else {
            throw DarkroomError.corrupt(.gif, detail: "LZW minimum code size \(minimumCodeSize) is outside 1…11")
        }
        let clear = 1 << minimumCodeSize, end = clear + 1
        var lengths = [Int](repeating: 1, count: 4096)  // string length of each code
        var codeSize = minimumCodeSize + 1, next = clear + 2
        var previous: Int?
        var pixels = 0
        var bitBuffer = 0, bitCount = 0, index = 0
        while pixels < limit {
            // The next code, least significant bits first.
            while bitCount < codeSize {
                guard index < lzw.count else { return pixels }
                bitBuffer |= Int(lzw[index]) << bitCount
                index += 1
                bitCount += 8
            }
            let code = bitBuffer & ((1 << codeSize) - 1)
            bitBuffer >>= codeSize
            bitCount -= codeSize
            if code == clear {
                codeSize = minimumCodeSize + 1
                next = clear + 2
                previous = nil
                continue
            }
            if code == end { return pixels }
            guard let prior = previous else {
                guard code < clear else {
                    throw DarkroomError.corrupt(.gif, detail: "LZW code \(code) before any table entry")
                }
                pixels += 1
                previous = code
                continue
            }
            guard code <= next, code < 4096 else {
                throw DarkroomError.corrupt(.gif, detail: "LZW code \(code) is not in the table (next \(next))")
            }
            pixels += code == next ? lengths[prior] + 1 : lengths[code]
            if next < 4096 {
                lengths[next] = lengths[prior] + 1
                next += 1
                if next == 1 << codeSize, codeSize < 12 { codeSize += 1 }
            }
            previous = code
        }
        return pixels
    }
}
