// MARK: - PercentEncoding

/// Percent-decoding of request paths and percent-encoding of sources for URLs, as RFC 3986
/// has them: `%XX` is one byte, and the decoded bytes must be UTF-8.
///
/// ```swift
/// PercentEncoding.decode("https%3A%2F%2Fexample.com%2Fa.jpg")  // "https://example.com/a.jpg"
/// PercentEncoding.encode("photos/my cat.jpg")                 // "photos/my%20cat.jpg"
/// ```
public enum PercentEncoding {
    /// `text` with every `%XX` replaced by its byte; `nil` when an escape is malformed, the
    /// bytes are not UTF-8, or they contain NUL.
    public static func decode(_ text: Substring) -> String? {
        // Byte scans: `Substring.contains` of a character breaks graphemes (1.2 % of a memory
        // hit's CPU, for two paths a request).
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text.utf8.contains(0) ? nil : String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// ``decode(_:)`` of a `String`.
    public static func decode(_ text: String) -> String? { decode(text[...]) }

    /// `text` with every byte outside RFC 3986's unreserved characters and `/` escaped, so it
    /// can stand in a path as it is (a source URL's `:`, `?`, `#`, `%` and `&` are escaped).
    public static func encode(_ text: String, keepingSlashes: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepingSlashes && byte == UInt8(ascii: "/")) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%"
                out.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte & 0xF)]))
            }
        }
        return out
    }

    // MARK: - Bytes

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The value of one hex digit, either case.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
