import DarkroomConfig
import DarkroomCore
import FoundationEssentials

// MARK: - ConfigTable

/// A `[caches.NAME]` or `[sources.NAME]` table as a kind's factory sees it: typed readers for
/// its keys that throw a ``ConfigurationError`` naming the key's `file:line`, and the
/// environment (for secrets a table names by variable).
///
/// ```swift
/// registry.register(cacheKind: "folder", keys: ["path"]) { table in
///     guard let path = try table.string("path") else { throw table.error("path is required") }
///     return FolderCache(path: path)
/// }
/// ```
public struct ConfigTable: Sendable {
    /// `caches` or `sources`.
    public let section: String
    /// The table's name (`shared` for `[caches.shared]`).
    public let name: String
    /// The kind (`type`, else the name).
    public let kind: String
    /// The table, with a location for each key.
    public let node: ConfigNode
    /// The environment variables, for secrets a table names by variable (the process's own
    /// by default).
    public let environment: [String: String]

    /// Creates the view of the table `node`, `[SECTION.NAME]`, of kind `kind`.
    public init(
        section: String = "caches", name: String, kind: String, node: ConfigNode,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.section = section
        self.name = name
        self.kind = kind
        self.node = node
        self.environment = environment
    }

    /// Where the table was written.
    public var location: SourceLocation { node.location }

    // MARK: - Readers

    /// A non-empty string, or `nil` when the key is absent.
    public func string(_ key: String) throws -> String? {
        guard let value = node[key] else { return nil }
        guard let text = value.string, !text.isEmpty else { throw error(key, "must be a non-empty string") }
        return text
    }

    /// An array of non-empty strings, or `nil` when the key is absent.
    public func strings(_ key: String) throws -> [String]? {
        guard let value = node[key] else { return nil }
        guard let array = value.array else { throw error(key, "must be an array of strings") }
        return try array.map { element in
            guard let text = element.string, !text.isEmpty else {
                throw ConfigurationError(.error(at: element.location, "[\(section).\(name)] \(key) entries must be non-empty strings"))
            }
            return text
        }
    }

    /// A whole number, or `nil` when the key is absent.
    public func integer(_ key: String, in range: ClosedRange<Int> = 0...Int.max) throws -> Int? {
        guard let value = node[key] else { return nil }
        guard let number = value.integer, range.contains(number) else {
            throw error(key, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// `true` or `false`, or `nil` when the key is absent.
    public func boolean(_ key: String) throws -> Bool? {
        guard let value = node[key] else { return nil }
        guard let flag = value.boolean else { throw error(key, "must be true or false") }
        return flag
    }

    /// A size such as `"100MB"` or a number of bytes, or `nil` when the key is absent.
    public func size(_ key: String) throws -> Int? {
        guard let value = node[key] else { return nil }
        if let bytes = value.integer, bytes >= 0 { return bytes }
        if let text = value.string, let bytes = ConfigQuantity.bytes(text) { return bytes }
        throw error(key, "must be a size such as \"100MB\" or a number of bytes")
    }

    /// A duration such as `"50ms"`, `"7d"` or a number of seconds, or `nil` when the key is absent.
    public func duration(_ key: String) throws -> Double? {
        guard let value = node[key] else { return nil }
        if let seconds = value.number, seconds >= 0 { return seconds }
        if let text = value.string, let seconds = ConfigQuantity.seconds(text) { return seconds }
        throw error(key, "must be a duration such as \"50ms\", \"30s\", \"7d\" or a number of seconds")
    }

    // MARK: - Errors

    /// An error at `key`'s line (or the table's when the key is absent): `[SECTION.NAME] key message`.
    public func error(_ key: String, _ message: String) -> ConfigurationError {
        ConfigurationError(.error(at: (node[key] ?? node).location, "[\(section).\(name)] \(key) \(message)"))
    }

    /// An error at the table's line: `[SECTION.NAME] message`.
    public func error(_ message: String) -> ConfigurationError {
        ConfigurationError(.error(at: node.location, "[\(section).\(name)] \(message)"))
    }
}

// MARK: - ConfigurationError

/// Errors in a configuration, each with its `file:line`: printed one per line.
///
/// ```swift
/// do { _ = try registry.cacheLayers(for: configuration.cacheSettings) }
/// catch let error as ConfigurationError { error.diagnostics.forEach { print($0) } }
/// ```
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// The errors, each with its `file:line`, in the order found.
    public var diagnostics: [Diagnostic]

    /// An error carrying `diagnostics`.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// An error carrying the single `diagnostic`.
    public init(_ diagnostic: Diagnostic) {
        self.diagnostics = [diagnostic]
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
