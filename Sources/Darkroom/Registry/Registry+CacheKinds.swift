import DarkroomConfig
import DarkroomCore
import FoundationEssentials

// MARK: - CacheKind

/// A kind of cache layer a `[caches.NAME]` table may select with `type`: its name, the keys
/// its tables may have (declared as data, so unknown keys are refused and `darkroom list`
/// shows them) and the factory that builds a layer from a table.
public struct CacheKind: Sendable {
    /// The name a table selects it by (`type = "<name>"`, or the table's own name).
    public let name: String
    /// The keys its tables may have besides `type` and `originals`.
    public let keys: [String]
    /// One line for `darkroom list`.
    public let summary: String
    /// Who registered it (a module or app name).
    public let origin: String
    /// Whether `darkroom check` runs the factory to check a table's values. `false` for the
    /// standard kinds, whose tables the configuration loader checks itself and whose factory
    /// touches the disk.
    public let checksByBuilding: Bool
    let factory: @Sendable (ConfigTable) throws -> any ImageCache
}

// MARK: - Cache kinds

extension Registry {
    /// Registers a cache kind: `[caches.NAME] type = "<name>"` tables are built by `factory`.
    ///
    /// The factory reads its table through ``ConfigTable``'s readers (their errors name the
    /// key's `file:line`) and returns the layer. It should not connect or touch files yet —
    /// `darkroom check` runs it to check a table — but open lazily on first use.
    ///
    /// ```swift
    /// registry.register(cacheKind: "folder", keys: ["path"], summary: "renders in a folder") { table in
    ///     guard let path = try table.string("path") else { throw table.error("needs a path") }
    ///     return FolderCache(path: path)
    /// }
    /// ```
    public mutating func register(
        cacheKind name: String, keys: [String], summary: String = "", origin: String = "app",
        factory: @escaping @Sendable (ConfigTable) throws -> any ImageCache
    ) {
        cacheKinds[name] = CacheKind(
            name: name, keys: keys, summary: summary, origin: origin, checksByBuilding: true, factory: factory)
    }

    /// Registers a kind whose tables the configuration loader checks (the standard ones).
    mutating func registerCheckedCacheKind(
        _ name: String, keys: [String], summary: String, factory: @escaping @Sendable (ConfigTable) throws -> any ImageCache
    ) {
        cacheKinds[name] = CacheKind(
            name: name, keys: keys, summary: summary, origin: "Darkroom", checksByBuilding: false, factory: factory)
    }

    // MARK: - Checking

    /// The problems of `settings`' tables that only the registry can see: kinds nobody
    /// registered (naming the known ones), keys a kind does not declare, and what the
    /// factories of registered kinds report about their values. Builds nothing that lasts.
    public func cacheDiagnostics(for settings: CacheSettings, environment: [String: String] = ProcessInfo.processInfo.environment) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for table in settings.tables {
            guard let kind = cacheKinds[table.kind] else {
                diagnostics.append(unknownKind(table))
                continue
            }
            guard kind.checksByBuilding else { continue }
            let keyProblems = unknownKeys(table, kind)
            diagnostics += keyProblems
            guard keyProblems.isEmpty else { continue }
            do {
                _ = try kind.factory(ConfigTable(name: table.name, kind: table.kind, node: table.node, environment: environment))
            } catch {
                diagnostics += Self.diagnostics(of: error, table: table)
            }
        }
        return diagnostics
    }

    // MARK: - Building

    /// The layers `settings` asks for, in file order, built by their kinds' factories (with a
    /// default `memory` layer first when none is configured, and a `disk` layer last when
    /// `$DARKROOM_CACHE_DIR` is set and none is configured).
    ///
    /// - Throws: ``ConfigurationError`` with every problem: an unknown kind or key, a bad
    ///   value, or a layer that could not be opened.
    public func cacheLayers(
        for settings: CacheSettings, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> CacheLayers {
        var layers: [CacheLayer] = []
        var diagnostics: [Diagnostic] = []
        for table in Self.effectiveCacheTables(settings, environment: environment) {
            guard let kind = cacheKinds[table.kind] else {
                diagnostics.append(unknownKind(table))
                continue
            }
            let keyProblems = unknownKeys(table, kind)
            guard keyProblems.isEmpty else {
                diagnostics += keyProblems
                continue
            }
            do {
                let cache = try kind.factory(ConfigTable(name: table.name, kind: table.kind, node: table.node, environment: environment))
                layers.append(CacheLayer(name: table.name, kind: kind.name, cache: cache, storesOriginals: table.storesOriginals))
            } catch {
                diagnostics += Self.diagnostics(of: error, table: table)
            }
        }
        guard diagnostics.isEmpty else { throw ConfigurationError(diagnostics) }
        return CacheLayers(layers)
    }

    // MARK: - Problems

    private func unknownKind(_ table: CacheTableSpec) -> Diagnostic {
        let known = cacheKinds.keys.sorted()
        let hint = NearestName.suggestion(for: table.kind, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        let list = known.isEmpty ? "no cache kinds are registered" : "known kinds: \(known.joined(separator: ", "))"
        guard let type = table.node["type"] else {
            return .error(at: table.node.location, "unknown cache '\(table.name)'\(hint); give it a type (\(list))")
        }
        return .error(at: type.location, "[caches.\(table.name)] unknown cache type '\(table.kind)'\(hint); \(list)")
    }

    private func unknownKeys(_ table: CacheTableSpec, _ kind: CacheKind) -> [Diagnostic] {
        let known = kind.keys + CacheSettings.commonKeys
        return table.node.orderedMembers.compactMap { member in
            guard !known.contains(member.key) else { return nil }
            let hint = NearestName.suggestion(for: member.key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            return .error(
                at: member.node.location,
                "unknown key '\(member.key)' in [caches.\(table.name)]\(hint); known keys: \(known.joined(separator: ", "))")
        }
    }

    private static func diagnostics(of error: any Error, table: CacheTableSpec) -> [Diagnostic] {
        if let error = error as? ConfigurationError { return error.diagnostics }
        return [.error(at: table.node.location, "[caches.\(table.name)] \(error)")]
    }
}
