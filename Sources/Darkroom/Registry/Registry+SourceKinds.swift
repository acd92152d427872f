import DarkroomConfig
import DarkroomCore
import FoundationEssentials

// MARK: - SourceKind

/// A kind of source a `[sources.NAME]` table may select with `type`: its name, the keys its
/// tables may have, and the factory that builds the source (which then answers the
/// locations it `ImageSource/canLoad(_:)`, usually by scheme: `s3://…`).
public struct SourceKind: Sendable {
    /// The name a table selects it by (`type = "<name>"`, or the table's own name).
    public let name: String
    /// The keys its tables may have besides `type`.
    public let keys: [String]
    /// One line for `darkroom list`.
    public let summary: String
    /// Who registered it (a module or app name).
    public let origin: String
    let factory: @Sendable (ConfigTable) throws -> any ImageSource
}

// MARK: - Source kinds

extension Registry {
    /// The kind `[sources.http]` configures: its table is read into `HTTPSourceSettings` and
    /// the HTTP source is registered by whoever accepts remote sources (the server without
    /// `--no-remote`, the CLI for URL inputs), so it is known here but never built here.
    public static let httpSourceKind = "http"

    /// Registers a source kind: `[sources.NAME] type = "<name>"` tables are built by `factory`.
    /// As for cache kinds, the factory reads its table through ``ConfigTable`` and should not
    /// connect yet (`darkroom check` runs it).
    ///
    /// ```swift
    /// registry.register(sourceKind: "s3", keys: ["bucket", "region"], summary: "objects in S3") { table in
    ///     guard let bucket = try table.string("bucket") else { throw table.error("needs a bucket") }
    ///     return S3Source(bucket: bucket, region: try table.string("region") ?? "us-east-1")
    /// }
    /// ```
    public mutating func register(
        sourceKind name: String, keys: [String], summary: String = "", origin: String = "app",
        factory: @escaping @Sendable (ConfigTable) throws -> any ImageSource
    ) {
        sourceKinds[name] = SourceKind(name: name, keys: keys, summary: summary, origin: origin, factory: factory)
    }

    /// The problems of `tables` only the registry can see: unknown kinds and keys, and what the
    /// factories report about their values.
    public func sourceDiagnostics(
        for tables: [SourceTableSpec], environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [Diagnostic] {
        do {
            _ = try configuredSources(tables, environment: environment)
            return []
        } catch let error as ConfigurationError {
            return error.diagnostics
        } catch {
            return []
        }
    }

    /// This registry with the sources `tables` configure registered before its own (their
    /// schemes are more specific than a file root's), in the order written; `[sources.http]`
    /// is left to the caller (see ``httpSourceKind``).
    ///
    /// - Throws: ``ConfigurationError`` with every unknown kind or key and bad value.
    public func registeringSources(
        of tables: [SourceTableSpec], environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Registry {
        let configured = try configuredSources(tables, environment: environment)
        guard !configured.isEmpty else { return self }
        var registry = self
        registry.sources = configured + sources
        return registry
    }

    private func configuredSources(_ tables: [SourceTableSpec], environment: [String: String]) throws -> [any ImageSource] {
        var built: [any ImageSource] = []
        var diagnostics: [Diagnostic] = []
        for table in tables where table.kind != Self.httpSourceKind {
            guard let kind = sourceKinds[table.kind] else {
                diagnostics.append(unknownSourceKind(table))
                continue
            }
            let known = kind.keys + ["type"]
            let unknown = table.node.orderedMembers.filter { !known.contains($0.key) }
            for member in unknown {
                let hint = NearestName.suggestion(for: member.key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.append(.error(
                    at: member.node.location,
                    "unknown key '\(member.key)' in [sources.\(table.name)]\(hint); known keys: \(known.joined(separator: ", "))"))
            }
            guard unknown.isEmpty else { continue }
            do {
                built.append(try kind.factory(ConfigTable(
                    section: "sources", name: table.name, kind: table.kind, node: table.node, environment: environment)))
            } catch let error as ConfigurationError {
                diagnostics += error.diagnostics
            } catch {
                diagnostics.append(.error(at: table.node.location, "[sources.\(table.name)] \(error)"))
            }
        }
        guard diagnostics.isEmpty else { throw ConfigurationError(diagnostics) }
        return built
    }

    private func unknownSourceKind(_ table: SourceTableSpec) -> Diagnostic {
        let known = (Array(sourceKinds.keys) + [Self.httpSourceKind]).sorted()
        let hint = NearestName.suggestion(for: table.kind, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        guard let type = table.node["type"] else {
            return .error(
                at: table.node.location,
                "unknown source '\(table.name)'\(hint); give it a type (known kinds: \(known.joined(separator: ", ")))")
        }
        return .error(
            at: type.location, "[sources.\(table.name)] unknown source type '\(table.kind)'\(hint); known kinds: \(known.joined(separator: ", "))")
    }
}
