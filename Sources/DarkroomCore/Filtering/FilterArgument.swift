// MARK: - FilterArgument

/// One argument a filter declares, as data: its name, type and range, default and unit.
/// Validation, `darkroom list`, the docs and the canonical identifier are all derived from
/// these declarations, so no argument can be validated one way and keyed another.
///
/// ```swift
/// FilterArgument(name: "sigma", kind: .number(0.1...100), default: .number(2), unit: "px",
///                summary: "standard deviation of the Gaussian")
/// ```
public struct FilterArgument: Sendable, Hashable {
    /// The type and the allowed values of an argument.
    public enum Kind: Sendable, Hashable {
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// A finite number, fractional or not, within the range.
        case number(ClosedRange<Double>)
        /// `true` or `false`.
        case boolean
        /// A colour: `#rgb`, `#rrggbb`, `#rrggbbaa` or a name such as `white` or `transparent`.
        case color
        /// One of the listed lower-case words, matched regardless of case.
        case choice([String])
        /// Any non-empty text.
        case text
    }

    /// The argument's name, as written in a chain and in the filter's identifier, e.g. `sigma`.
    public var name: String
    /// The argument's type and allowed values.
    public var kind: Kind
    /// `nil` means the argument is required.
    public var defaultValue: FilterValue?
    /// The unit shown after the range in messages and docs, e.g. `px`; `nil` for none.
    public var unit: String?
    /// A short description for `darkroom list` and the docs.
    public var summary: String

    /// Declares an argument; a `nil` `defaultValue` (the default) makes it required, and `unit`
    /// is `nil` for a unitless value.
    public init(name: String, kind: Kind, default defaultValue: FilterValue? = nil, unit: String? = nil, summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.unit = unit
        self.summary = summary
    }

    /// Whether the argument must be given, i.e. it has no ``defaultValue``.
    public var isRequired: Bool { defaultValue == nil }

    /// What a valid value looks like, e.g. `"an integer 1…16384 px"`.
    public var expectation: String {
        let unitText = unit.map { " \($0)" } ?? ""
        switch kind {
        case let .integer(range): return "an integer \(range.lowerBound)…\(range.upperBound)\(unitText)"
        case let .number(range):
            return "a number \(FilterValue.canonicalNumber(range.lowerBound))…\(FilterValue.canonicalNumber(range.upperBound))\(unitText)"
        case .boolean: return "true or false"
        case .color: return "a colour (#rgb, #rrggbb, #rrggbbaa or a name such as white, black, transparent)"
        case let .choice(words): return "one of \(words.joined(separator: ", "))"
        case .text: return "text"
        }
    }

    // MARK: - Parsing a value

    /// Validates `input` against the declaration and returns its canonical value.
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` naming `filter.argument`
    ///   and the allowed range.
    public func value(from input: FilterInput, filter: String) throws -> FilterValue {
        func fail() -> DarkroomError {
            .invalidArgument(name: "\(filter) argument '\(name)'", value: input.description, expected: expectation)
        }
        switch kind {
        case let .integer(range):
            let number: Int?
            switch input {
            case let .integer(v): number = v
            case let .number(v): number = v == v.rounded() && abs(v) < 1e15 ? Int(v) : nil
            case let .text(t):
                let trimmed = t.trimmingSpaces
                number = Int(trimmed) ?? trimmed.decimalNumber.flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
            case .boolean: number = nil
            }
            guard let number, range.contains(number) else { throw fail() }
            return .integer(number)
        case let .number(range):
            let number: Double?
            switch input {
            case let .integer(v): number = Double(v)
            case let .number(v): number = v
            case let .text(t): number = t.trimmingSpaces.decimalNumber
            case .boolean: number = nil
            }
            guard let number, number.isFinite, range.contains(number) else { throw fail() }
            return .number(number == 0 ? 0 : number)
        case .boolean:
            switch input {
            case let .boolean(v): return .boolean(v)
            case let .text(t) where ["true", "false"].contains(t.lowercased()): return .boolean(t.lowercased() == "true")
            default: throw fail()
            }
        case .color:
            guard case let .text(t) = input, let rgba = ColorParser.parse(t) else { throw fail() }
            return .color(rgba)
        case let .choice(words):
            guard case let .text(t) = input, words.contains(t.lowercased()) else { throw fail() }
            return .choice(t.lowercased())
        case .text:
            guard case let .text(t) = input, !t.isEmpty else { throw fail() }
            return .text(t)
        }
    }
}

// MARK: - FilterInput

/// A raw argument value as written in a config file or on the command line, before validation.
public enum FilterInput: Sendable, Hashable, CustomStringConvertible {
    /// An integer, e.g. `128`; also accepted where a number is declared.
    case integer(Int)
    /// A number, e.g. `0.5`; a whole one is also accepted where an integer is declared.
    case number(Double)
    /// A boolean, `true` or `false`.
    case boolean(Bool)
    /// Text: the only input a colour, choice or text argument accepts; integer, number and
    /// boolean arguments parse it.
    case text(String)

    public var description: String {
        switch self {
        case let .integer(v): return String(v)
        case let .number(v): return FilterValue.canonicalNumber(v)
        case let .boolean(v): return String(v)
        case let .text(t): return t
        }
    }
}

extension String {
    /// The text without leading and trailing white space: spaces, tabs and line breaks.
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// The text as a plain decimal number (`12`, `-0.5`, `.5`, `1e3`), or `nil`. Swift's
    /// `Double(_:)` also reads hexadecimal (`0x40`, `0x1p2`), `inf` and `nan`, which no
    /// argument documents, so anything but digits, one sign, a point and an exponent is refused.
    var decimalNumber: Double? {
        guard let first = first, first.isASCII, first.isNumber || first == "-" || first == "+" || first == "." else { return nil }
        guard allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else { return nil }
        return Double(self)
    }
}
