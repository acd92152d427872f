import DarkroomCache
import DarkroomConfig
import DarkroomCore
import FoundationEssentials
import Glibc

// MARK: - The standard cache kinds

extension Registry {
    /// The environment variable that sets (and enables) the disk cache folder.
    public static let cacheDirectoryVariable = "DARKROOM_CACHE_DIR"

    /// Registers the `memory` and `disk` cache kinds:
    ///
    /// | kind | keys | layer |
    /// | --- | --- | --- |
    /// | `memory` | `capacity`, `after-purge` | `EncodedImageMemoryCache` (this process) |
    /// | `disk` | `path`, `limit`, `max-age` | `DiskCache` (shared by processes, kept across restarts) |
    ///
    /// The disk folder is `$DARKROOM_CACHE_DIR`, else `path`, else `$XDG_CACHE_HOME/darkroom`,
    /// else `~/.cache/darkroom`.
    public mutating func registerStandardCacheKinds() {
        registerCheckedCacheKind(
            "memory", keys: CacheSettings.memoryKeys, summary: "encoded renders in this process's memory (LRU by bytes)"
        ) { table in
            let (memory, diagnostics) = CacheSettings.readMemory(table.node, name: table.name)
            guard diagnostics.filter(\.isError).isEmpty else { throw ConfigurationError(diagnostics.filter(\.isError)) }
            return EncodedImageMemoryCache(memoryCapacity: memory.capacity, preferredMemoryUsageAfterPurge: memory.afterPurge)
        }
        registerCheckedCacheKind(
            "disk", keys: CacheSettings.diskKeys, summary: "encoded renders in a folder, shared by processes (LRU, max-age)"
        ) { table in
            let (disk, diagnostics) = CacheSettings.readDisk(table.node, name: table.name)
            guard diagnostics.filter(\.isError).isEmpty else { throw ConfigurationError(diagnostics.filter(\.isError)) }
            let path = Registry.diskCachePath(configured: disk.path, environment: table.environment)
            return try DiskCache(directory: path, limit: disk.limit, maxAge: disk.maxAge)
        }
    }

    /// The tables ``cacheLayers(for:environment:)`` builds: the configured ones, after a
    /// default `memory` layer when none is configured, and with a `disk` layer added when
    /// `$DARKROOM_CACHE_DIR` is set and none is configured.
    static func effectiveCacheTables(_ settings: CacheSettings, environment: [String: String]) -> [CacheTableSpec] {
        var tables = settings.tables
        let implicit = SourceLocation.wholeFile("(default)")
        if !tables.contains(where: { $0.kind == "memory" }) {
            tables.insert(CacheTableSpec(name: "memory", kind: "memory", node: ConfigNode(.table([:]), at: implicit)), at: 0)
        }
        if let folder = environment[cacheDirectoryVariable], !folder.isEmpty, !tables.contains(where: { $0.kind == "disk" }) {
            let node = ConfigNode(.table([:]), at: .wholeFile("$" + cacheDirectoryVariable))
            tables.append(CacheTableSpec(name: "disk", kind: "disk", node: node))
        }
        return tables
    }

    /// The disk cache folder: `$DARKROOM_CACHE_DIR`, else `configured`, else
    /// `$XDG_CACHE_HOME/darkroom`, else `~/.cache/darkroom`.
    public static func diskCachePath(configured: String?, environment: [String: String]) -> String {
        if let override = environment[cacheDirectoryVariable], !override.isEmpty { return override }
        if let configured { return configured }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/darkroom" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? homeFromPasswordFile()
        return home + "/.cache/darkroom"
    }

    /// The user's home folder from the password database (`HOME` unset), else `/tmp`.
    private static func homeFromPasswordFile() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/tmp" }
        let home = String(cString: directory)
        return home.isEmpty ? "/tmp" : home
    }
}

// MARK: - Standard layers

extension CacheLayers {
    /// One `memory` layer (100 MB, purging to 60 MB by default): the pipeline's default.
    public static func memory(capacity: Int = 100 * 1024 * 1024, afterPurge: Int = 60 * 1024 * 1024) -> CacheLayers {
        CacheLayers([
            CacheLayer(
                name: "memory",
                cache: EncodedImageMemoryCache(memoryCapacity: capacity, preferredMemoryUsageAfterPurge: min(afterPurge, capacity)))
        ])
    }
}

extension CacheLayers {
    /// A `memory` layer then a `disk` layer, each when given (what `[caches.memory]` and
    /// `[caches.disk]` build); `storesOriginals` makes the disk layer keep fetched originals.
    ///
    /// ```swift
    /// let caches = CacheLayers.standard(memory: EncodedImageMemoryCache(), disk: try DiskCache(directory: folder))
    /// ```
    public static func standard(
        memory: EncodedImageMemoryCache? = nil, disk: DiskCache? = nil, storesOriginals: Bool = false
    ) -> CacheLayers {
        var layers: [CacheLayer] = []
        if let memory { layers.append(CacheLayer(name: "memory", cache: memory)) }
        if let disk { layers.append(CacheLayer(name: "disk", cache: disk, storesOriginals: storesOriginals)) }
        return CacheLayers(layers)
    }
}
