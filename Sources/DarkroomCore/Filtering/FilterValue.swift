// MARK: - FilterValue

/// One argument value of a filter, with a single canonical text form used in identifiers.
///
/// ```swift
/// FilterValue.number(1.50).canonicalText          // "1.5"
/// FilterValue.color(RGBA(r: 255, g: 0, b: 0)).canonicalText // "#ff0000ff"
/// ```
public enum FilterValue: Sendable, Hashable, CustomStringConvertible {
    /// A whole number.
    case integer(Int)
    /// A number, whole or fractional.
    case number(Double)
    /// `true` or `false`.
    case boolean(Bool)
    /// A colour with alpha, 8 bits per channel.
    case color(RGBA)
    /// One of a fixed set of words (e.g. a gravity).
    case choice(String)
    /// Free text (e.g. a path or a variant name).
    case text(String)

    /// The canonical text: integers in decimal, numbers in their shortest round-tripping
    /// form with no trailing `.0` and no negative zero, colours as `#rrggbbaa`, booleans as
    /// `true`/`false`, text percent-escaped so it can never contain `,`, `(`, `)`, `=`, `|`, `>` or a space.
    public var canonicalText: String {
        switch self {
        case let .integer(value): return String(value)
        case let .number(value): return Self.canonicalNumber(value)
        case let .boolean(value): return value ? "true" : "false"
        case let .color(rgba): return Self.canonicalColor(rgba)
        case let .choice(word): return word
        case let .text(text): return Self.escape(text)
        }
    }

    public var description: String { canonicalText }

    // MARK: - Accessors

    /// The value as an integer: an integer, or a whole number under 10¹⁵ in magnitude; `nil` for
    /// anything else.
    public var intValue: Int? {
        switch self {
        case let .integer(v): return v
        case let .number(v) where v == v.rounded() && abs(v) < 1e15: return Int(v)
        default: return nil
        }
    }

    /// The value as a number: a number, or an integer converted; `nil` for anything else.
    public var doubleValue: Double? {
        switch self {
        case let .integer(v): return Double(v)
        case let .number(v): return v
        default: return nil
        }
    }

    /// The boolean, or `nil` for any other kind of value.
    public var boolValue: Bool? {
        if case let .boolean(v) = self { return v }
        return nil
    }

    /// The colour, or `nil` for any other kind of value.
    public var colorValue: RGBA? {
        if case let .color(v) = self { return v }
        return nil
    }

    /// The word of a choice or the text of a text value; `nil` for any other kind of value.
    public var stringValue: String? {
        switch self {
        case let .choice(v), let .text(v): return v
        default: return nil
        }
    }

    // MARK: - Canonical forms

    static func canonicalNumber(_ value: Double) -> String {
        if value == 0 { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    static func canonicalColor(_ c: RGBA) -> String {
        "#" + [c.r, c.g, c.b, c.a].map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// Characters that separate filters, arguments and chains in identifiers.
    static let reserved: Set<Character> = [",", "(", ")", "=", "|", ">", "%", " "]

    static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            if reserved.contains(ch) {
                for byte in String(ch).utf8 { out += "%" + String(format2: byte) }
            } else {
                out.append(ch)
            }
        }
        return out
    }

    static func unescape(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == "%", let end = text.index(i, offsetBy: 3, limitedBy: text.endIndex),
                let byte = UInt8(text[text.index(after: i)..<end], radix: 16) {
                bytes.append(byte)
                i = end
            } else {
                bytes.append(contentsOf: String(text[i]).utf8)
                i = text.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate init(format2 byte: UInt8) {
        let hex = String(byte, radix: 16, uppercase: true)
        self = hex.count == 1 ? "0" + hex : hex
    }
}
