// MARK: - FilterSpec

/// A filter written as text — the identifier syntax, `name(arg=value,…)` or `name` — parsed
/// into its name and raw arguments. Identifiers parse back into equal filters.
///
/// ```swift
/// let spec = try FilterSpec(parsing: "aspect-fill(height=128,width=128)")
/// spec.name      // "aspect-fill"
/// spec.arguments // [("height", .text("128")), ("width", .text("128"))]
/// ```
public struct FilterSpec: Sendable, Hashable {
    /// The filter's name, e.g. `aspect-fill`.
    public var name: String
    /// The arguments in the order written, not yet validated.
    public var arguments: [Argument]

    /// One `key=value` argument as written.
    public struct Argument: Sendable, Hashable {
        /// The argument's name, e.g. `width`.
        public var name: String
        /// The raw value; a parsed spec holds it as unescaped text.
        public var value: FilterInput
    }

    /// Builds a spec from a filter name and its `(name, value)` argument pairs in order (none by
    /// default).
    public init(name: String, arguments: [(String, FilterInput)] = []) {
        self.name = name
        self.arguments = arguments.map { Argument(name: $0.0, value: $0.1) }
    }

    /// The arguments as the pairs ``FilterSchema/resolve(_:)`` takes.
    public var pairs: [(String, FilterInput)] { arguments.map { ($0.name, $0.value) } }

    /// Parses `name`, `name()` or `name(key=value,key=value)`. Spaces around tokens are allowed.
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` describing the problem.
    public init(parsing text: String) throws {
        func fail(_ why: String) -> DarkroomError {
            .invalidArgument(name: "filter", value: text, expected: "name or name(key=value,…): \(why)")
        }
        let trimmed = text.trimmingSpaces
        guard let open = trimmed.firstIndex(of: "(") else {
            guard Self.isName(trimmed) else { throw fail("'\(trimmed)' is not a filter name") }
            self.init(name: trimmed)
            return
        }
        guard trimmed.hasSuffix(")") else { throw fail("missing ')' at the end") }
        let name = String(trimmed[..<open]).trimmingSpaces
        guard Self.isName(name) else { throw fail("'\(name)' is not a filter name") }
        let body = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        guard !body.contains("("), !body.contains(")") else { throw fail("unbalanced parentheses") }
        var arguments: [(String, FilterInput)] = []
        if !body.trimmingCharactersSpaces.isEmpty {
            for part in body.split(separator: ",", omittingEmptySubsequences: false) {
                let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pieces.count == 2 else { throw fail("'\(part.trimmingCharactersSpaces)' is not key=value") }
                let key = String(pieces[0]).trimmingSpaces
                guard Self.isName(key) else { throw fail("'\(key)' is not an argument name") }
                let value = FilterValue.unescape(Substring(String(pieces[1]).trimmingSpaces))
                arguments.append((key, .text(value)))
            }
        }
        self.init(name: name, arguments: arguments)
    }

    /// Filter and argument names: letters, digits, `-` and `_`, starting with a letter.
    public static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter else { return false }
        return text.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") && $0.isASCII }
    }
}

extension Substring {
    var trimmingCharactersSpaces: String { String(self).trimmingSpaces }
}
