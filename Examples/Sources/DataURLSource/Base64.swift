import Darkroom

// MARK: - Base64

/// Base64 (RFC 4648, standard alphabet; padding optional, ASCII whitespace ignored) to bytes.
enum Base64 {
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` naming the first
    ///   character outside the alphabet, or the payload when it decodes to more than `maxBytes`.
    static func decode(_ text: Substring, maxBytes: Int) throws -> [UInt8] {
        guard text.utf8.count / 4 * 3 <= maxBytes + 3 else { throw tooLarge(maxBytes) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 4 * 3)
        var buffer: UInt32 = 0
        var bits = 0
        var padding = 0
        for character in text.utf8 {
            if character == UInt8(ascii: " ") || character == UInt8(ascii: "\n") || character == UInt8(ascii: "\r")
                || character == UInt8(ascii: "\t") {
                continue
            }
            if character == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(character) else {
                throw DarkroomError.invalidArgument(
                    name: "data: URL payload", value: String(UnicodeScalar(character)), expected: "base64 (A–Z, a–z, 0–9, +, /, =)")
            }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        guard padding <= 2, bits < 6 else {
            throw DarkroomError.invalidArgument(name: "data: URL payload", value: "its end", expected: "whole base64 groups")
        }
        guard bytes.count <= maxBytes else { throw tooLarge(maxBytes) }
        return bytes
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return 63
        default: return nil
        }
    }

    static func tooLarge(_ maxBytes: Int) -> DarkroomError {
        DarkroomError.invalidArgument(name: "data: URL payload", value: "over \(maxBytes) bytes", expected: "at most max-bytes")
    }
}

// MARK: - PercentDecoding

/// A non-base64 payload: `%XX` escapes to bytes, everything else as it is.
enum PercentDecoding {
    static func decode(_ text: Substring, maxBytes: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let character = iterator.next() {
            if character == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw DarkroomError.invalidArgument(name: "data: URL payload", value: "%", expected: "%XX with two hex digits")
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(character)
            }
            guard bytes.count <= maxBytes else { throw Base64.tooLarge(maxBytes) }
        }
        return bytes
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
