import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomCurl
import Synchronization

// MARK: - The tool's registry

/// The registry the tool uses: the one its executable handed to ``DarkroomTool/main(registry:)``
/// (Darkroom's standard components when none was), built on first use — usually on the thread
/// that loads the configuration beside the argument parsing, not before it.
enum CommandRegistry {
    /// How to build the registry, and the registry once built.
    private struct Installed {
        var make: @Sendable () -> Registry
        var built: Registry?
    }

    private static let installed = Mutex(Installed(make: { Registry.standard }, built: nil))

    /// Makes `make` the way the registry is built; the tool calls it once, before anything
    /// reads ``shared``.
    static func install(_ make: @escaping @Sendable () -> Registry) {
        installed.withLock { $0 = Installed(make: make, built: nil) }
    }

    /// The tool's registry (built by the first caller; the others wait for it).
    static var shared: Registry {
        installed.withLock { installed in
            if let registry = installed.built { return registry }
            let registry = installed.make()
            installed.built = registry
            return registry
        }
    }

    /// The cache layers the configuration asks for, or none with `noCache` (for measuring).
    /// - Throws: ``SettingsError`` for the first error in `[caches.*]`: caches are not opened
    ///   with settings other than the ones written.
    static func caches(for configuration: Configuration, noCache: Bool) throws -> CacheLayers {
        if noCache { return .none }
        if let error = configuration.cacheErrors.first { throw SettingsError(diagnostic: error) }
        do {
            return try shared.cacheLayers(for: configuration.cacheSettings)
        } catch let error as ConfigurationError {
            throw SettingsError(diagnostic: error.diagnostics[0])
        }
    }

    /// Refuses to fetch URLs with settings other than the ones written.
    /// - Throws: ``SettingsError`` for the first error in `[sources.*]`.
    static func requireSourceSettings(_ configuration: Configuration) throws {
        if let error = configuration.sourceErrors.first { throw SettingsError(diagnostic: error) }
    }

    /// Whether `location` is for a source kind `[sources.*]` configures (`s3://…`), which the
    /// pipeline loads; `false` for files, http(s) URLs and unknown schemes.
    static func isConfiguredSource(_ location: String, configuration: Configuration) throws -> Bool {
        guard location.contains("://"), !BatchInput.isURL(location), !configuration.sourceTables.isEmpty else { return false }
        let registry = try shared.registeringSources(of: configuration.sourceTables)
        guard let source = try? registry.source(for: location) else { return false }
        return source.name != "file"
    }

    /// Adds the disk layers' hit and miss counts to their `stats` files now. A command calls it
    /// when its work is done: a layer's last reference may belong to a finished waiting task
    /// that has not let go yet when the process exits, so the flush on deinit could be missed
    /// (a batch served from the disk cache then showed 0 hits in `cache stats`).
    static func flushCounters(of caches: CacheLayers) {
        for layer in caches.layers {
            (layer.cache as? DiskCache)?.flush()
        }
    }

    /// A renderer going through `caches`, or straight to work without them.
    static func renderer(caches: CacheLayers, decoding: DecodeOptions = DecodeOptions()) -> CachingRenderer {
        CachingRenderer(renderer: VariantRenderer(registry: shared, decoding: decoding), caches: caches)
    }

    /// A pipeline for every input of `render` and the URL inputs of `batch`: the tool's registry
    /// plus local paths (``PathSource``), the sources `[sources.*]` configure (`s3`) and an ``HTTPSource`` with the configuration's `[sources.http]` settings, rendering `targets` by name, through the same
    /// `caches` as the renderer. `jobs` bounds the processing. `first` is asked before all of
    /// them (standard input's bytes, which a plain path would otherwise claim).
    static func pipeline(
        for configuration: Configuration, targets: [RenderTarget], caches: CacheLayers, jobs: Int,
        first: (any ImageSource)? = nil, decoding: DecodeOptions = DecodeOptions(),
        threading: ImagePipeline.Threading = .separate
    ) throws -> ImagePipeline {
        var registry = shared
        if let first { registry.register(source: first) }
        // Plain paths first, read as the inline renderer reads them (same keys, same errors).
        registry.register(source: PathSource())
        registry = try registry.registeringSources(of: configuration.sourceTables)
        registry.register(source: HTTPSource(settings: configuration.httpSourceSettings))
        var settings = ImagePipeline.Configuration(registry: registry, targets: targets, caches: caches)
        settings.maximumActiveProcessing = max(1, jobs)
        settings.threading = threading
        settings.apply(configuration.limitSettings)
        settings.decoding = decoding
        return ImagePipeline(configuration: settings)
    }

    /// Loads the configuration `--config` (or its fallbacks) names.
    /// (Usually already loaded by ``ConfigurationPrefetch`` while the arguments were parsed.)
    static func configuration(_ explicit: String?) -> (ConfigLocation, Configuration) {
        ConfigurationPrefetch.configuration(explicit)
    }
}

// MARK: - SettingsError

/// An error in the configuration's `[caches.*]` or `[sources.*]` settings that a command needs:
/// printed as `darkroom: error: file:line: message`, whatever the command was working on.
struct SettingsError: Error, CustomStringConvertible {
    var diagnostic: Diagnostic
    var description: String { diagnostic.description }
}
