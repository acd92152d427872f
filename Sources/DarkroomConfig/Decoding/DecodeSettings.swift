import DarkroomCore

// MARK: - DecodeSettings

/// The `[decode]` section of `filters.d/`: how decoders treat damaged files.
///
/// ```toml
/// [decode]
/// fail-on = "truncated"   # none, truncated, error or warning (the default)
/// ```
///
/// A later file's key replaces an earlier one's, as for variants; the built-in defaults set
/// none, so a folder that leaves `[decode]` out decodes with `FailOn.default`.
public struct DecodeSettings: Sendable, Hashable {
    /// How much damage in the pixel data stops a decode.
    public var failOn: FailOn
    /// Where `fail-on` was set; `nil` for the default.
    public var failOnLocation: SourceLocation?

    /// The keys `[decode]` may have.
    public static let keys = ["fail-on"]

    /// Settings failing on `failOn` (by default `FailOn.default`).
    public init(failOn: FailOn = .default, failOnLocation: SourceLocation? = nil) {
        self.failOn = failOn
        self.failOnLocation = failOnLocation
    }

    /// `options` with these settings applied.
    ///
    /// ```swift
    /// let decoding = configuration.decodeSettings.applied(to: DecodeOptions())
    /// ```
    public func applied(to options: DecodeOptions) -> DecodeOptions {
        var options = options
        options.failOn = failOn
        return options
    }

    // MARK: - Reading

    /// Reads one file's `[decode]` table over `self`, reporting every problem at its line.
    mutating func read(_ section: ConfigNode, diagnostics: inout [Diagnostic]) {
        guard section.table != nil else {
            diagnostics.append(.error(at: section.location, "'decode' must be a table ([decode]), not \(section.value.kindDescription)"))
            return
        }
        for (key, node) in section.orderedMembers {
            switch key {
            case "fail-on":
                guard let name = node.string, let level = FailOn(rawValue: name) else {
                    let given = node.string.map { "'\($0)'" } ?? node.value.kindDescription
                    let hint = node.string.flatMap { NearestName.suggestion(for: $0, among: FailOn.names) }
                        .map { " (did you mean '\($0)'?)" } ?? ""
                    diagnostics.append(.error(
                        at: node.location,
                        "[decode] fail-on must be one of \(FailOn.names.joined(separator: ", ")), not \(given)\(hint)"))
                    continue
                }
                failOn = level
                failOnLocation = node.location
            default:
                let hint = NearestName.suggestion(for: key, among: Self.keys).map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.append(.error(
                    at: node.location, "unknown key '\(key)' in [decode]\(hint); known keys: \(Self.keys.joined(separator: ", "))"))
            }
        }
    }
}
