// MARK: - JSONText

/// JSON string literals for output written by hand in a fixed key order (`darkroom probe`,
/// the server's JSON log lines), where an encoder's key order or escaping is not wanted.
///
/// ```swift
/// JSONText.string(#"a "b""#)  // "\"a \\\"b\\\"\""
/// ```
public enum JSONText {
    /// `text` as a JSON string: quotes, backslashes and control characters escaped, and DEL,
    /// U+2028 and U+2029 too (they break line-based readers and JavaScript).
    public static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
