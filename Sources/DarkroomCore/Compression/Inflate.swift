// MARK: - Inflate

/// A small DEFLATE (RFC 1951) and zlib (RFC 1950) decoder in Swift, for the few compressed
/// bytes header parsers meet — PNG's `zTXt` and compressed `iTXt` chunks, which carry XMP and
/// ImageMagick's raw EXIF profiles — so Core can read them without C. It decodes a bit at a time
/// (canonical Huffman codes, as zlib's reference `puff` does): simple to check, and fast enough for
/// kilobytes. Image data is libpng's.
///
/// Output is capped: a stream that would inflate past `maxOutput` bytes (a compression bomb) is
/// refused, as is any damage; neither traps.
///
/// ```swift
/// let text = Inflate.zlib(compressed, maxOutput: 1 << 20)   // nil when damaged or too large
/// ```
public enum Inflate {
    /// The bytes of the zlib stream `data` (2-byte header, DEFLATE data; the Adler-32 trailer is
    /// checked when present); `nil` when damaged or larger than `maxOutput`.
    public static func zlib(_ data: [UInt8], maxOutput: Int) -> [UInt8]? {
        guard data.count >= 2, data[0] & 0x0F == 8, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0, data[1] & 0x20 == 0 else {
            return nil
        }
        var state = State(data: data, position: 2, maxOutput: maxOutput)
        guard state.inflate() else { return nil }
        // The Adler-32 of the output follows the last block, byte-aligned, big-endian.
        let at = state.position
        if at + 4 <= data.count {
            let stored = UInt32(data[at]) << 24 | UInt32(data[at + 1]) << 16 | UInt32(data[at + 2]) << 8 | UInt32(data[at + 3])
            guard stored == adler32(state.output) else { return nil }
        }
        return state.output
    }

    /// The bytes of the raw DEFLATE stream `data`; `nil` when damaged or larger than `maxOutput`.
    public static func raw(_ data: [UInt8], maxOutput: Int) -> [UInt8]? {
        var state = State(data: data, position: 0, maxOutput: maxOutput)
        return state.inflate() ? state.output : nil
    }

    /// The Adler-32 checksum (RFC 1950) of `bytes`, which ends every zlib stream.
    ///
    /// ```swift
    /// Inflate.adler32(Array("Wikipedia".utf8))   // 0x11E60398
    /// ```
    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5552 bytes keep the sums below 2³² before the modulo (zlib's NMAX).
            let end = min(bytes.count, index + 5552)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    // MARK: - Tables (RFC 1951 3.2.5)

    private static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193,
        12289, 16385, 24577,
    ]
    private static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order code-length code lengths are stored in.
    private static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static let fixedLiterals: Huffman = {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        return Huffman(lengths: lengths)!
    }()
    private static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))!

    // MARK: - Canonical Huffman codes

    /// A canonical code: how many codes have each length, and the symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        /// `nil` for an over-subscribed set of lengths (incomplete sets are allowed, as in zlib,
        /// for the single-code distance tables encoders write).
        init?(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1...15 {
                left = left * 2 - counts[length]
                if left < 0 { return nil }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    // MARK: - The decoder

    private struct State {
        let data: [UInt8]
        var position: Int
        let maxOutput: Int
        var output: [UInt8] = []
        var bitBuffer = 0
        var bitCount = 0

        init(data: [UInt8], position: Int, maxOutput: Int) {
            self.data = data
            self.position = position
            self.maxOutput = maxOutput
        }

        mutating func bits(_ count: Int) -> Int? {
            while bitCount < count {
                guard position < data.count else { return nil }
                bitBuffer |= Int(data[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let value = bitBuffer & ((1 << count) - 1)
            bitBuffer >>= count
            bitCount -= count
            return value
        }

        mutating func decode(_ code: Huffman) -> Int? {
            var value = 0, first = 0, index = 0
            for length in 1...15 {
                guard let bit = bits(1) else { return nil }
                value |= bit
                let count = code.counts[length]
                if value - first < count { return code.symbols[index + value - first] }
                index += count
                first = (first + count) << 1
                value <<= 1
            }
            return nil
        }

        /// Every block up to the last; `false` on damage or too much output.
        mutating func inflate() -> Bool {
            while true {
                guard let last = bits(1), let type = bits(2) else { return false }
                let ok: Bool
                switch type {
                case 0: ok = stored()
                case 1: ok = codes(Inflate.fixedLiterals, Inflate.fixedDistances)
                case 2: ok = dynamic()
                default: ok = false
                }
                guard ok else { return false }
                if last == 1 { return true }
            }
        }

        mutating func stored() -> Bool {
            bitBuffer = 0
            bitCount = 0
            guard position + 4 <= data.count else { return false }
            let length = Int(data[position]) | Int(data[position + 1]) << 8
            let complement = Int(data[position + 2]) | Int(data[position + 3]) << 8
            position += 4
            guard length == ~complement & 0xFFFF, position + length <= data.count, output.count + length <= maxOutput else {
                return false
            }
            output += data[position..<position + length]
            position += length
            return true
        }

        mutating func dynamic() -> Bool {
            guard let literalCount = bits(5).map({ $0 + 257 }), let distanceCount = bits(5).map({ $0 + 1 }),
                let codeLengthCount = bits(4).map({ $0 + 4 }), literalCount <= 286, distanceCount <= 30
            else { return false }
            var codeLengthLengths = [Int](repeating: 0, count: 19)
            for index in 0..<codeLengthCount {
                guard let length = bits(3) else { return false }
                codeLengthLengths[Inflate.codeLengthOrder[index]] = length
            }
            guard let codeLengths = Huffman(lengths: codeLengthLengths) else { return false }
            var lengths: [Int] = []
            while lengths.count < literalCount + distanceCount {
                guard let symbol = decode(codeLengths) else { return false }
                if symbol < 16 {
                    lengths.append(symbol)
                    continue
                }
                let repeated: Int, times: Int
                switch symbol {
                case 16:
                    guard let previous = lengths.last, let extra = bits(2) else { return false }
                    (repeated, times) = (previous, 3 + extra)
                case 17:
                    guard let extra = bits(3) else { return false }
                    (repeated, times) = (0, 3 + extra)
                default:
                    guard let extra = bits(7) else { return false }
                    (repeated, times) = (0, 11 + extra)
                }
                guard lengths.count + times <= literalCount + distanceCount else { return false }
                lengths += [Int](repeating: repeated, count: times)
            }
            // The end-of-block code must exist.
            guard lengths[256] != 0, let literals = Huffman(lengths: Array(lengths[..<literalCount])),
                let distances = Huffman(lengths: Array(lengths[literalCount...]))
            else { return false }
            return codes(literals, distances)
        }

        mutating func codes(_ literals: Huffman, _ distances: Huffman) -> Bool {
            while true {
                guard let symbol = decode(literals) else { return false }
                if symbol < 256 {
                    guard output.count < maxOutput else { return false }
                    output.append(UInt8(symbol))
                } else if symbol == 256 {
                    return true
                } else {
                    let lengthIndex = symbol - 257
                    guard lengthIndex < 29, let lengthExtra = bits(Inflate.lengthExtra[lengthIndex]),
                        let distanceSymbol = decode(distances), distanceSymbol < 30,
                        let distanceExtra = bits(Inflate.distanceExtra[distanceSymbol])
                    else { return false }
                    let length = Inflate.lengthBase[lengthIndex] + lengthExtra
                    let distance = Inflate.distanceBase[distanceSymbol] + distanceExtra
                    guard distance <= output.count, output.count + length <= maxOutput else { return false }
                    let start = output.count - distance
                    for offset in 0..<length { output.append(output[start + offset]) }
                }
            }
        }
    }
}
