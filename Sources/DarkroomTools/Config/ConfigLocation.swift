import Darkroom
import DarkroomConfig
import DarkroomCore
import FoundationEssentials

// MARK: - ConfigLocation

/// Where a `filters.d/` configuration comes from.
///
/// Resolution order (what every `--config` option does): the explicit folder, else
/// `$DARKROOM_CONFIG`, else `./filters.d` when it exists, else the default configuration
/// embedded in Darkroom (the repository's `filters.d/`, compiled in).
///
/// A folder is read over the built-in defaults: their variants, caches and sources first,
/// then the folder's files, a later definition replacing an earlier one of the same name.
/// A file that says `[defaults] include = false` opts the folder out of them.
///
/// ```swift
/// let location = ConfigLocation.resolve(explicit: nil)
/// let configuration = location.load(filters: Registry.standard.filters)
/// ```
public enum ConfigLocation: Sendable, Hashable, CustomStringConvertible {
    /// A `filters.d/` folder at this path, read over the built-in defaults.
    case directory(String)
    /// The default configuration compiled into Darkroom (the repository's `filters.d/`).
    case embeddedDefault

    /// The environment variable naming the config folder.
    public static let environmentVariable = "DARKROOM_CONFIG"

    /// The configuration `--config` names: `explicit` when given, else `$DARKROOM_CONFIG`,
    /// else `./filters.d`, else the embedded default.
    ///
    /// ```swift
    /// let location = ConfigLocation.resolve(explicit: "deploy/filters.d")  // .directory(…)
    /// ```
    public static func resolve(explicit: String?) -> ConfigLocation {
        // An explicit folder needs neither the environment nor the working directory (reading
        // them first cost a tenth of a millisecond before a batch could start).
        if let explicit, !explicit.isEmpty { return .directory(explicit) }
        return resolve(
            explicit: nil, environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// ``resolve(explicit:)`` with the environment and working directory given.
    public static func resolve(
        explicit: String?, environment: [String: String], currentDirectory: String
    ) -> ConfigLocation {
        if let explicit, !explicit.isEmpty { return .directory(explicit) }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
            return .directory(fromEnvironment)
        }
        let local = currentDirectory + "/filters.d"
        var isDirectory = false
        if FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory), isDirectory {
            return .directory("filters.d")
        }
        return .embeddedDefault
    }

    /// Reads and validates the configuration against the registry's filters and, when given,
    /// the formats its encoders write (a variant's `format` naming another is an error).
    public func load(filters: [String: FilterSchema], writableFormats: Set<ImageFormat>? = nil) -> Configuration {
        switch self {
        case let .directory(path):
            return ConfigLoader.load(directory: path, over: Self.builtInSources, filters: filters, writableFormats: writableFormats)
        case .embeddedDefault:
            return ConfigLoader.load(sources: Self.builtInSources, filters: filters, writableFormats: writableFormats)
        }
    }

    /// What the names of the built-in files start with (`(built-in)/10-basics.toml`), so
    /// `darkroom list` and diagnostics say a variant came from the defaults.
    public static let builtInPrefix = "(built-in)/"

    /// The built-in defaults, named with ``builtInPrefix``.
    public static let builtInSources = EmbeddedDefaultConfig.files.map { ConfigSource(name: builtInPrefix + $0.name, text: $0.text) }

    /// The files of `configuration` that are not the built-in defaults (a folder's own).
    public static func ownFiles(of configuration: Configuration) -> [String] {
        configuration.files.filter { !$0.hasPrefix(builtInPrefix) }
    }

    /// Whether `configuration`, loaded from this location, is a folder read over the built-in
    /// defaults (it did not opt out), as `check`'s summary and the server's banner say.
    public func readsBuiltInDefaults(_ configuration: Configuration) -> Bool {
        self != .embeddedDefault && Self.ownFiles(of: configuration).count < configuration.files.count
    }

    public var description: String {
        switch self {
        case let .directory(path): return path
        case .embeddedDefault: return "the embedded default configuration"
        }
    }
}
