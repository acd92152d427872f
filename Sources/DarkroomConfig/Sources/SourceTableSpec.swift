// MARK: - SourceTableSpec

/// One `[sources.NAME]` table: a source of the given kind (its `type`, else its name),
/// configured by the table. `[sources.http]` is read by `HTTPSourceSettings`; tables of other
/// kinds are built by the source kinds a registry knows (`registry.register(sourceKind:)`).
///
/// ```toml
/// [sources.photos]
/// type = "s3"
/// bucket = "photos"
/// ```
public struct SourceTableSpec: Sendable, Hashable {
    /// The table's name (`photos` for `[sources.photos]`).
    public var name: String
    /// Its `type`, else its name.
    public var kind: String
    /// The table itself, with `file:line` for each key.
    public var node: ConfigNode

    /// Creates the spec of the table `name`, a source of kind `kind` configured by `node`.
    public init(name: String, kind: String, node: ConfigNode) {
        self.name = name
        self.kind = kind
        self.node = node
    }

    /// The tables of the `sources` section in the order written (`[sources.http]` included,
    /// as a table of kind `http`), with an error for a `type` that is not a non-empty string.
    public static func read(_ section: [String: ConfigNode]) -> ([SourceTableSpec], [Diagnostic]) {
        var tables: [SourceTableSpec] = []
        var diagnostics: [Diagnostic] = []
        let ordered = section.map { (name: $0.key, node: $0.value) }
            .sorted { ($0.node.location, $0.name) < ($1.node.location, $1.name) }
        for (name, node) in ordered where node.table != nil {
            let (kind, problem) = node.componentKind(name: name, section: "sources", example: "source kind such as \"http\"")
            if let problem { diagnostics.append(problem) }
            tables.append(SourceTableSpec(name: name, kind: kind, node: node))
        }
        return (tables, diagnostics)
    }
}
