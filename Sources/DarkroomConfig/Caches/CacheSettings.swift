import DarkroomCore

// MARK: - CacheSettings

/// The `[caches.memory]` and `[caches.disk]` sections of `filters.d/`.
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
/// originals = false              # also keep the sources' original bytes
/// ```
public struct CacheSettings: Sendable, Hashable {
    public struct Memory: Sendable, Hashable {
        public var capacity = 100 * 1024 * 1024
        public var afterPurge = 60 * 1024 * 1024
        public init() {}
    }

    public struct Disk: Sendable, Hashable {
        /// `nil` = the default folder (`$DARKROOM_CACHE_DIR`, else `~/.cache/darkroom`).
        public var path: String?
        public var limit: Int?
        public var maxAge: Double?
        public var storesOriginals = false
        public init() {}
    }

    public var memory = Memory()
    /// `nil` when no `[caches.disk]` section is given.
    public var disk: Disk?

    public init() {}

    static let memoryKeys = ["capacity", "after-purge"]
    static let diskKeys = ["path", "limit", "max-age", "originals"]

    /// Reads the `caches` section, reporting every problem with its file and line.
    public static func read(_ section: [String: ConfigNode]) -> (CacheSettings, [Diagnostic]) {
        var reader = CacheSettingsReader()
        for (name, node) in section.sorted(by: { $0.key < $1.key }) {
            reader.readCache(name, node)
        }
        return (reader.settings, reader.diagnostics)
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
        switch name {
        case "memory": readMemory(table, node)
        case "disk": readDisk(table)
        default:
            let hint = NearestName.suggestion(for: name, among: ["memory", "disk"]).map { " (did you mean '\($0)'?)" } ?? ""
            diagnostics.append(.error(at: node.location, "unknown cache '\(name)'\(hint); known caches: memory, disk"))
        }
    }

    private mutating func readMemory(_ table: [String: ConfigNode], _ node: ConfigNode) {
        var afterPurgeGiven = false
        for (key, value) in table.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "capacity": if let bytes = size(value, key, "memory") { settings.memory.capacity = bytes }
            case "after-purge":
                if let bytes = size(value, key, "memory") {
                    settings.memory.afterPurge = bytes
                    afterPurgeGiven = true
                }
            default: unknownKey(key, value, known: CacheSettings.memoryKeys, in: "memory")
            }
        }
        if !afterPurgeGiven {
            // The 60 MB default would exceed a smaller capacity: 60 % of it, as 60 MB is of 100 MB.
            settings.memory.afterPurge = min(settings.memory.afterPurge, settings.memory.capacity / 5 * 3)
        } else if settings.memory.afterPurge > settings.memory.capacity {
            diagnostics.append(.error(
                at: (table["after-purge"] ?? node).location,
                "[caches.memory] after-purge (\(settings.memory.afterPurge) bytes) must not exceed capacity (\(settings.memory.capacity) bytes)"))
            settings.memory.afterPurge = settings.memory.capacity  // reported; the pair stays usable
        }
    }

    private mutating func readDisk(_ table: [String: ConfigNode]) {
        var disk = CacheSettings.Disk()
        for (key, value) in table.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "path":
                if let path = value.string, !path.isEmpty {
                    disk.path = path
                } else {
                    diagnostics.append(.error(at: value.location, "[caches.disk] path must be a non-empty string"))
                }
            case "limit": disk.limit = positive(size(value, key, "disk"), value, "limit must be more than 0 bytes")
            case "max-age": disk.maxAge = positive(duration(value), value, "max-age must be longer than 0 s")
            case "originals":
                if let flag = value.boolean {
                    disk.storesOriginals = flag
                } else {
                    diagnostics.append(.error(at: value.location, "[caches.disk] originals must be true or false"))
                }
            default: unknownKey(key, value, known: CacheSettings.diskKeys, in: "disk")
            }
        }
        settings.disk = disk
    }

    private mutating func duration(_ node: ConfigNode) -> Double? {
        var seconds: Double?
        if let number = node.number, number >= 0 {
            seconds = number
        } else if let text = node.string {
            seconds = ConfigQuantity.seconds(text)
        }
        if seconds == nil {
            diagnostics.append(.error(
                at: node.location, "[caches.disk] max-age must be a duration such as \"30d\", \"12h\" or a number of seconds"))
        }
        return seconds
    }

    /// `value` when it is above zero; 0 is an error (leaving the key out means no bound).
    private mutating func positive<T: Numeric & Comparable>(_ value: T?, _ node: ConfigNode, _ rule: String) -> T? {
        guard let value, value <= 0 else { return value }
        diagnostics.append(.error(at: node.location, "[caches.disk] \(rule) (leave it out for none)"))
        return nil
    }

    private mutating func unknownKey(_ key: String, _ node: ConfigNode, known: [String], in table: String) {
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
