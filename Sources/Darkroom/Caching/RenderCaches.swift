import DarkroomCache
import DarkroomConfig
import DarkroomCore
import FoundationEssentials
import Glibc

// MARK: - RenderCaches

/// The caches a configuration asks for: always a memory layer (`[caches.memory]`, default
/// 100 MB purging to 60 MB) and, when `[caches.disk]` is present or `$DARKROOM_CACHE_DIR` is
/// set, a disk layer.
///
/// The disk folder is `$DARKROOM_CACHE_DIR`, else `[caches.disk] path`, else
/// `$XDG_CACHE_HOME/darkroom`, else `~/.cache/darkroom`.
///
/// ```swift
/// let caches = try RenderCaches(settings: configuration.cacheSettings)
/// let renderer = CachingRenderer(renderer: VariantRenderer(registry: .standard), memory: caches.memory, disk: caches.disk)
/// ```
public struct RenderCaches: Sendable {
    /// The environment variable that sets (and enables) the disk cache folder.
    public static let directoryVariable = "DARKROOM_CACHE_DIR"

    public let memory: EncodedImageMemoryCache
    public let disk: DiskCache?

    /// - Throws: ``DarkroomError`` when the memory settings are not `0 ≤ afterPurge ≤ capacity`
    ///   or the disk cache folder cannot be created.
    public init(settings: CacheSettings, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let (capacity, afterPurge) = (settings.memory.capacity, settings.memory.afterPurge)
        guard afterPurge >= 0, capacity >= afterPurge else {
            throw DarkroomError.invalidArgument(
                name: "[caches.memory] after-purge", value: "\(afterPurge)",
                expected: "a size from 0 to capacity (\(capacity) bytes)")
        }
        memory = EncodedImageMemoryCache(
            memoryCapacity: settings.memory.capacity, preferredMemoryUsageAfterPurge: settings.memory.afterPurge)
        guard let path = Self.diskPath(settings: settings, environment: environment) else {
            disk = nil
            return
        }
        disk = try DiskCache(directory: path, limit: settings.disk?.limit, maxAge: settings.disk?.maxAge)
    }

    /// The disk cache folder, or `nil` when no disk cache is configured.
    public static func diskPath(settings: CacheSettings, environment: [String: String]) -> String? {
        if let override = environment[directoryVariable], !override.isEmpty { return override }
        guard let disk = settings.disk else { return nil }
        if let path = disk.path { return path }
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
