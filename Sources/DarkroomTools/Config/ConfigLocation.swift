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
/// ```swift
/// let location = ConfigLocation.resolve(explicit: nil)
/// let configuration = location.load(filters: Registry.standard.filters)
/// ```
public enum ConfigLocation: Sendable, Hashable, CustomStringConvertible {
    case directory(String)
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
            return ConfigLoader.load(directory: path, filters: filters, writableFormats: writableFormats)
        case .embeddedDefault:
            return ConfigLoader.load(
                sources: EmbeddedDefaultConfig.files.map { ConfigSource(name: "(embedded)/\($0.name)", text: $0.text) },
                filters: filters, writableFormats: writableFormats)
        }
    }

    public var description: String {
        switch self {
        case let .directory(path): return path
        case .embeddedDefault: return "the embedded default configuration"
        }
    }
}
