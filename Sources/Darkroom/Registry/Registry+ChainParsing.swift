import DarkroomConfig
import DarkroomCore

// MARK: - Chains in identifier syntax

extension Registry {
    /// An ad-hoc chain in the identifier syntax `darkroom list` prints: filters joined by `|`,
    /// optionally ended by `>` and encoder settings — `aspect-fit(height=300,width=300)|sharpen>webp(quality=75)`.
    /// Each filter is built from its declaration (the same validation as `filters.d/`), so the
    /// chain's identifier, and the cache key, is the canonical one: argument order and default
    /// values written out do not matter, and a chain equal to a preset shares its entries.
    /// Argument values are percent-escaped in identifiers, so `|` and `>` only separate.
    ///
    /// ```swift
    /// let (filters, encoding) = try registry.chain(parsing: "aspect-fit(width=300,height=300)>webp(quality=75)")
    /// FilterChain(filters).identifier   // "aspect-fit(height=300,…,width=300)"
    /// ```
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` (`name` "chain") for an
    ///   empty filter, a `>` inside a filter's arguments, or bad encoder settings; the filter's
    ///   own error for an unknown filter or a bad argument.
    public func chain(parsing text: String) throws -> (filters: [any ImageFilter], encoding: VariantEncoding?) {
        var chain = Substring(text)
        var encoding: VariantEncoding?
        if let arrow = text.firstIndex(of: ">") {
            chain = text[..<arrow]
            guard chain.filter({ $0 == "(" }).count <= chain.filter({ $0 == ")" }).count else {
                throw DarkroomError.invalidArgument(
                    name: "chain", value: text, expected: "'>' only before encoder settings; inside a filter's arguments write it as %3E")
            }
            encoding = try VariantEncoding(parsing: String(text[text.index(after: arrow)...]))
            if chain.allSatisfy(\.isWhitespace) { return ([], encoding) }
        }
        var filters: [any ImageFilter] = []
        for part in chain.split(separator: "|", omittingEmptySubsequences: false) {
            guard !part.allSatisfy(\.isWhitespace) else {
                throw DarkroomError.invalidArgument(name: "chain", value: text, expected: "a filter, or filters joined by '|' (one is empty)")
            }
            filters.append(try filter(parsing: String(part)))
        }
        return (filters, encoding)
    }
}
