import DarkroomCore

// MARK: - GIFLZW

/// Decodes one GIF frame's LZW data into palette indices.
///
/// ```swift
/// let (indices, decoded) = try GIFLZW.decode(bytes, ranges: frame.dataRanges, minimumCodeSize: 8, pixelCount: 480 * 270)
/// ```
enum GIFLZW {
    /// The frame's `pixelCount` indices, and how many of them the data held (the rest are 0).
    /// - Throws: ``DarkroomError/corrupt(_:detail:)`` for a code size outside 1…11 or a code
    ///   that is neither in the table nor the next one to be added.
    static func decode(
        _ bytes: [UInt8], ranges: [Range<Int>], minimumCodeSize: Int, pixelCount: Int
    ) throws -> (indices: [UInt8], decoded: Int) {
        guard (1...11).contains(minimumCodeSize) else {
            throw DarkroomError.corrupt(.gif, detail: "LZW minimum code size \(minimumCodeSize) is outside 1…11")
        }
        var decoded = 0
        var failure: DarkroomError?
        let indices = [UInt8](unsafeUninitializedCapacity: pixelCount) { out, initialized in
            let written = bytes.withUnsafeBufferPointer { data in
                var decoder = Decoder(minimumCodeSize: minimumCodeSize)
                return decoder.run(data, ranges: ranges, into: out, failure: &failure)
            }
            decoded = written
            if written < pixelCount { (out.baseAddress! + written).initialize(repeating: 0, count: pixelCount - written) }
            initialized = pixelCount
        }
        if let failure { throw failure }
        return (indices, decoded)
    }

    // MARK: - Decoder

    private struct Decoder {
        let minimumCodeSize: Int
        var prefix = [UInt16](repeating: 0, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var first = [UInt8](repeating: 0, count: 4096)  // each code's first byte
        var length = [UInt16](repeating: 0, count: 4096)

        init(minimumCodeSize: Int) {
            self.minimumCodeSize = minimumCodeSize
            for code in 0..<(1 << minimumCodeSize) {
                suffix[code] = UInt8(truncatingIfNeeded: code)
                first[code] = UInt8(truncatingIfNeeded: code)
                length[code] = 1
            }
        }

        /// Writes indices into `out` until the end code, the data's end or `out` is full;
        /// returns how many.
        mutating func run(
            _ data: UnsafeBufferPointer<UInt8>, ranges: [Range<Int>], into out: UnsafeMutableBufferPointer<UInt8>,
            failure: inout DarkroomError?
        ) -> Int {
            let clear = 1 << minimumCodeSize, end = clear + 1
            var codeSize = minimumCodeSize + 1, next = clear + 2
            var previous = -1
            var bitBuffer = 0, bitCount = 0
            var written = 0
            var rangeIndex = 0, offset = ranges.first?.lowerBound ?? 0
            let capacity = out.count
            while written < capacity {
                while bitCount < codeSize {
                    while rangeIndex < ranges.count, offset >= ranges[rangeIndex].upperBound {
                        rangeIndex += 1
                        if rangeIndex < ranges.count { offset = ranges[rangeIndex].lowerBound }
                    }
                    guard rangeIndex < ranges.count else { return written }
                    bitBuffer |= Int(data[offset]) << bitCount
                    offset += 1
                    bitCount += 8
                }
                let code = bitBuffer & ((1 << codeSize) - 1)
                bitBuffer >>= codeSize
                bitCount -= codeSize
                if code == clear {
                    codeSize = minimumCodeSize + 1
                    next = clear + 2
                    previous = -1
                    continue
                }
                if code == end { return written }
                if previous < 0 {
                    guard code < clear else {
                        failure = .corrupt(.gif, detail: "LZW code \(code) before any table entry")
                        return written
                    }
                    out[written] = UInt8(truncatingIfNeeded: code)
                    written += 1
                    previous = code
                    continue
                }
                guard code <= next, code < 4096 else {
                    failure = .corrupt(.gif, detail: "LZW code \(code) is not in the table (next \(next))")
                    return written
                }
                // The new entry: previous's string plus the first byte of this code's (or, for the
                // code being defined, of previous's own).
                let firstByte = code == next ? first[previous] : first[code]
                if next < 4096 {
                    prefix[next] = UInt16(previous)
                    suffix[next] = firstByte
                    first[next] = first[previous]
                    length[next] = length[previous] + 1
                }
                // Write the string of `code` backwards from its end, cut at the buffer's end
                // (a full table adds nothing, so every code read then is defined).
                let stringLength = Int(length[code])
                var position = written + stringLength - 1
                var walk = code
                while position >= written {
                    if position < capacity { out[position] = suffix[walk] }
                    walk = Int(prefix[walk])
                    position -= 1
                }
                written = min(capacity, written + stringLength)
                if next < 4096 {
                    next += 1
                    if next == 1 << codeSize, codeSize < 12 { codeSize += 1 }
                }
                previous = code
            }
            return written
        }
    }
}
