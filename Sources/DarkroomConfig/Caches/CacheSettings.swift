import DarkroomCore

// MARK: - CacheSettings

/// The `[caches.*]` tables of `filters.d/`: the cache layers in file order (``tables``), and
/// the settings of the standard kinds, `memory` and `disk`, read and checked here.
///
/// Every table is one layer. Its kind is its `type`, or its name when it has none, so
/// `[caches.memory]` and `[caches.disk]` keep working; other kinds are registered by modules
/// (`registry.register(cacheKind:)`), which read and check their own tables.
///
/// ```toml
/// [caches.memory]
/// capacity = "100MB"        # purge when passed …
/// after-purge = "60MB"      # … down to this (default 60 MB, or 60 % of a smaller capacity)
///
/// [caches.disk]
/// path = "/var/cache/darkroom"   # DARKROOM_CACHE_DIR overrides it; default ~/.cache/darkroom
/// limit = "1GB"                  # LRU sweep when passed
/// max-age = "30d"                # entries older than this are misses and are swept
/// originals = false              # also keep the sources' original bytes (any kind)
///
/// [caches.shared]
/// type = "memcached"               # a kind a module registered
/// ```
public struct CacheSettings: Sendable, Hashable {
    /// The settings of a `memory` layer: an in-memory cache of encoded images bounded by size.
    public struct Memory: Sendable, Hashable {
        /// `capacity`: the size in bytes past which the cache purges (default 100 MB).
        public var capacity = 100 * 1024 * 1024
        /// `after-purge`: the size in bytes a purge trims the cache down to (default 60 MB, or
        /// 60 % of a smaller ``capacity``); a table may not set it above ``capacity``.
        public var afterPurge = 60 * 1024 * 1024
        /// The default settings: a 100 MB capacity, purged down to 60 MB.
        public init() {}
    }

    /// The settings of a `disk` layer: a cache folder shared by processes, bounded by size and age.
    public struct Disk: Sendable, Hashable {
        /// `nil` = the default folder (`$DARKROOM_CACHE_DIR`, else `~/.cache/darkroom`).
        public var path: String?
        /// `limit`: the size in bytes past which the least recently used entries are swept;
        /// `nil` = no bound.
        public var limit: Int?
        /// `max-age`: the age in seconds after which an entry is a miss and is swept; `nil` = no bound.
        public var maxAge: Double?
        /// `originals = true`: the layer also keeps fetched originals of remote sources.
        public var storesOriginals = false
        /// Settings with no bounds, in the default folder, not keeping originals.
        public init() {}
    }

    /// The settings of the first `memory` layer (the defaults when there is none).
    public var memory = Memory()
    /// The settings of the first `disk` layer; `nil` when there is none.
    public var disk: Disk?
    /// Every `[caches.*]` table, in the order written.
    public var tables: [CacheTableSpec] = []

    /// Settings with the default `memory` layer, no `disk` layer and no tables.
    public init() {}

    /// The keys every cache table may have, whatever its kind.
    public static let commonKeys = ["type", "originals"]
    /// The keys a `memory` table may have besides ``commonKeys``.
    public static let memoryKeys = ["capacity", "after-purge"]
    /// The keys a `disk` table may have besides ``commonKeys``.
    public static let diskKeys = ["path", "limit", "max-age"]

    /// Reads the `caches` section, reporting every problem with its file and line.
    public static func read(_ section: [String: ConfigNode]) -> (CacheSettings, [Diagnostic]) {
        var reader = CacheSettingsReader()
        let ordered = section.map { (name: $0.key, node: $0.value) }
            .sorted { ($0.node.location, $0.name) < ($1.node.location, $1.name) }
        for (name, node) in ordered {
            reader.readCache(name, node)
        }
        return (reader.settings, reader.diagnostics)
    }

    /// Reads one `memory` table named `name`.
    public static func readMemory(_ table: ConfigNode, name: String) -> (Memory, [Diagnostic]) {
        var reader = CacheSettingsReader()
        reader.readMemory(table.table ?? [:], table, name: name)
        return (reader.settings.memory, reader.diagnostics)
    }

    /// Reads one `disk` table named `name`.
    public static func readDisk(_ table: ConfigNode, name: String) -> (Disk, [Diagnostic]) {
        var reader = CacheSettingsReader()
        reader.readDisk(table.table ?? [:], name: name)
        return (reader.settings.disk ?? Disk(), reader.diagnostics)
    }
}

// MARK: - CacheTableSpec

/// One `[caches.NAME]` table: a layer of the given kind, configured by the table.
///
/// ```swift
/// for table in configuration.cacheSettings.tables { print(table.name, table.kind) }  // memory memory, shared memcached
/// ```
public struct CacheTableSpec: Sendable, Hashable {
    /// The table's name (`shared` for `[caches.shared]`): what `X-Darkroom-Cache` reports.
    public var name: String
    /// Its `type`, else its name.
    public var kind: String
    /// The table itself, with `file:line` for each key.
    public var node: ConfigNode
    /// `originals = true`: the layer also keeps fetched originals of remote sources.
    public var storesOriginals: Bool

    /// Creates the spec of the table `name`, a layer of kind `kind` configured by `node`;
    /// `storesOriginals` is its `originals` setting.
    public init(name: String, kind: String, node: ConfigNode, storesOriginals: Bool = false) {
        self.name = name
        self.kind = kind
        self.node = node
        self.storesOriginals = storesOriginals
    }
}

// MARK: - Reading

/// Reads `[caches.*]` tables one at a time, collecting diagnostics. (A struct with methods
/// rather than nested closures over a local: Swift 6.3's optimiser crashed on the latter.)
struct CacheSettingsReader {
    var settings = CacheSettings()
    var diagnostics: [Diagnostic] = []

    mutating func readCache(_ name: String, _ node: ConfigNode) {
        guard let table = node.table else {
            diagnostics.append(.error(at: node.location, "caches.\(name) must be a table ([caches.\(name)])"))
            return
        }
        let (kind, problem) = node.componentKind(name: name, section: "caches", example: "cache kind such as \"memory\" or \"disk\"")
        if let problem { diagnostics.append(problem) }
        var storesOriginals = false
        if let originals = table["originals"] {
            if let flag = originals.boolean {
                storesOriginals = flag
            } else {
                diagnostics.append(.error(at: originals.location, "[caches.\(name)] originals must be true or false"))
            }
        }
        settings.tables.append(CacheTableSpec(name: name, kind: kind, node: node, storesOriginals: storesOriginals))
        let first = !settings.tables.dropLast().contains { $0.kind == kind }
        switch kind {
        case "memory":
            let kept = settings.memory
            readMemory(table, node, name: name)
            if !first { settings.memory = kept }
        case "disk":
            let kept = settings.disk
            readDisk(table, name: name)
            if !first { settings.disk = kept } else { settings.disk?.storesOriginals = storesOriginals }
        default:
            break  // a registered kind reads its own table
        }
    }

    mutating func readMemory(_ table: [String: ConfigNode], _ node: ConfigNode, name: String) {
        settings.memory = CacheSettings.Memory()
        var afterPurgeGiven = false
        for (key, value) in table.sorted(by: { $0.key < $1.key }) {
            switch key {
            case _ where CacheSettings.commonKeys.contains(key): continue
            case "capacity": if let bytes = size(value, key, name) { settings.memory.capacity = bytes }
            case "after-purge":
                if let bytes = size(value, key, name) {
                    settings.memory.afterPurge = bytes
                    afterPurgeGiven = true
                }
            default: unknownKey(key, value, known: CacheSettings.memoryKeys, in: name)
            }
        }
        if !afterPurgeGiven {
            // The 60 MB default would exceed a smaller capacity: 60 % of it, as 60 MB is of 100 MB.
            settings.memory.afterPurge = min(settings.memory.afterPurge, settings.memory.capacity / 5 * 3)
        } else if settings.memory.afterPurge > settings.memory.capacity {
            diagnostics.append(.error(
                at: (table["after-purge"] ?? node).location,
                "[caches.\(name)] after-purge (\(settings.memory.afterPurge) bytes) must not exceed capacity (\(settings.memory.capacity) bytes)"))
            settings.memory.afterPurge = settings.memory.capacity  // reported; the pair stays usable
        }
    }

    mutating func readDisk(_ table: [String: ConfigNode], name: String) {
        var disk = CacheSettings.Disk()
        for (key, value) in table.sorted(by: { $0.key < $1.key }) {
            switch key {
            case _ where CacheSettings.commonKeys.contains(key): continue
            case "path":
                if let path = value.string, !path.isEmpty {
                    disk.path = path
                } else {
                    diagnostics.append(.error(at: value.location, "[caches.\(name)] path must be a non-empty string"))
                }
            case "limit": disk.limit = positive(size(value, key, name), value, "[caches.\(name)] limit must be more than 0 bytes")
            case "max-age": disk.maxAge = positive(duration(value, name), value, "[caches.\(name)] max-age must be longer than 0 s")
            default: unknownKey(key, value, known: CacheSettings.diskKeys, in: name)
            }
        }
        settings.disk = disk
    }

    private mutating func duration(_ node: ConfigNode, _ name: String) -> Double? {
        var seconds: Double?
        if let number = node.number, number >= 0 {
            seconds = number
        } else if let text = node.string {
            seconds = ConfigQuantity.seconds(text)
        }
        if seconds == nil {
            diagnostics.append(.error(
                at: node.location, "[caches.\(name)] max-age must be a duration such as \"30d\", \"12h\" or a number of seconds"))
        }
        return seconds
    }

    /// `value` when it is above zero; 0 is an error (leaving the key out means no bound).
    private mutating func positive<T: Numeric & Comparable>(_ value: T?, _ node: ConfigNode, _ rule: String) -> T? {
        guard let value, value <= 0 else { return value }
        diagnostics.append(.error(at: node.location, "\(rule) (leave it out for none)"))
        return nil
    }

    private mutating func unknownKey(_ key: String, _ node: ConfigNode, known: [String], in table: String) {
        let known = known + CacheSettings.commonKeys
        let hint = NearestName.suggestion(for: key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        diagnostics.append(.error(
            at: node.location, "unknown key '\(key)' in [caches.\(table)]\(hint); known keys: \(known.joined(separator: ", "))"))
    }

    private mutating func size(_ node: ConfigNode, _ key: String, _ table: String) -> Int? {
        var parsed: Int?
        if let integer = node.integer, integer >= 0 {
            parsed = integer
        } else if let text = node.string {
            parsed = ConfigQuantity.bytes(text)
        }
        if parsed == nil {
            diagnostics.append(.error(
                at: node.location, "[caches.\(table)] \(key) must be a size such as \"100MB\" or a number of bytes"))
        }
        return parsed
    }
}
