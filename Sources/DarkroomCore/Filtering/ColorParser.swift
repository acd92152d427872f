// MARK: - Colours

/// Parses colours written as `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or a CSS name.
///
/// ```swift
/// ColorParser.parse("#ff000080") // RGBA(r: 255, g: 0, b: 0, a: 128)
/// ColorParser.parse("white")     // RGBA(r: 255, g: 255, b: 255, a: 255)
/// ```
public enum ColorParser {
    static let names: [String: RGBA] = [
        "transparent": RGBA(r: 0, g: 0, b: 0, a: 0),
        "black": RGBA(r: 0, g: 0, b: 0), "white": RGBA(r: 255, g: 255, b: 255),
        "red": RGBA(r: 255, g: 0, b: 0), "green": RGBA(r: 0, g: 128, b: 0), "blue": RGBA(r: 0, g: 0, b: 255),
        "yellow": RGBA(r: 255, g: 255, b: 0), "cyan": RGBA(r: 0, g: 255, b: 255), "magenta": RGBA(r: 255, g: 0, b: 255),
        "gray": RGBA(r: 128, g: 128, b: 128), "grey": RGBA(r: 128, g: 128, b: 128),
        "orange": RGBA(r: 255, g: 165, b: 0), "purple": RGBA(r: 128, g: 0, b: 128),
    ]

    /// The colour, or `nil` when the text is not one.
    public static func parse(_ text: String) -> RGBA? {
        let t = text.trimmingSpaces.lowercased()
        if let named = names[t] { return named }
        guard t.hasPrefix("#") else { return nil }
        let digits = Array(t.dropFirst())
        // ASCII only: `Character.isHexDigit` also accepts fullwidth forms, which `UInt8(_:radix:)` refuses.
        guard digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        func value(_ chars: ArraySlice<Character>) -> UInt8 { UInt8(String(chars), radix: 16)! }
        switch digits.count {
        case 3, 4:
            let v = digits.map { value([$0, $0][...]) }
            return RGBA(r: v[0], g: v[1], b: v[2], a: digits.count == 4 ? v[3] : 255)
        case 6, 8:
            return RGBA(
                r: value(digits[0..<2]), g: value(digits[2..<4]), b: value(digits[4..<6]),
                a: digits.count == 8 ? value(digits[6..<8]) : 255)
        default:
            return nil
        }
    }
}
