import Darkroom
import DarkroomConfig
import DarkroomCurl
import DarkroomExampleFilters

// MARK: - The tool's registry

/// The registry the `darkroom` tool uses: Darkroom's standard components plus the example
/// extension module — registered exactly the way an application registers its own modules.
enum CommandRegistry {
    static let shared: Registry = {
        var registry = Registry.standard
        ExampleFilters.register(in: &registry)
        return registry
    }()

    /// A renderer going through the configured caches, or straight to work with `noCache`.
    static func renderer(for configuration: Configuration, noCache: Bool) throws -> CachingRenderer {
        let renderer = VariantRenderer(registry: shared)
        guard !noCache else { return CachingRenderer(renderer: renderer) }
        let caches = try RenderCaches(settings: configuration.cacheSettings)
        return CachingRenderer(renderer: renderer, memory: caches.memory, disk: caches.disk)
    }

    /// A pipeline for URL inputs: the tool's registry plus an ``HTTPSource`` with the
    /// configuration's `[sources.http]` settings, rendering `targets` by name, through the same
    /// caches as ``renderer(for:noCache:)`` (none with `noCache`). `jobs` bounds the processing.
    static func pipeline(
        for configuration: Configuration, targets: [RenderTarget], noCache: Bool, jobs: Int
    ) throws -> ImagePipeline {
        var registry = shared
        registry.register(source: HTTPSource(settings: configuration.httpSourceSettings))
        let caches = noCache ? nil : try RenderCaches(settings: configuration.cacheSettings)
        var settings = ImagePipeline.Configuration(
            registry: registry, targets: targets, memoryCache: caches?.memory, diskCache: caches?.disk,
            storesOriginals: caches?.disk != nil && (configuration.cacheSettings.disk?.storesOriginals ?? false))
        settings.maximumActiveProcessing = max(1, jobs)
        return ImagePipeline(configuration: settings)
    }

    /// Loads the configuration `--config` (or its fallbacks) names.
    static func configuration(_ explicit: String?) -> (ConfigLocation, Configuration) {
        let location = ConfigLocation.resolve(explicit: explicit)
        return (location, location.load(filters: shared.filters))
    }
}
