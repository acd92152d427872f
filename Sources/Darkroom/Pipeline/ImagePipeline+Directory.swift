import DarkroomConfig
import DarkroomCore
import DarkroomCurl
import DarkroomSources

// MARK: - A pipeline from a filters.d folder

extension ImagePipeline {
    /// A pipeline from a `filters.d/` folder in one line: its variants, its `[caches.*]`
    /// stack, its `[sources.*]`, files under `fileRoot` and http(s) URLs.
    ///
    /// The folder is loaded and **checked**: any error in it throws, with every error as
    /// `file:line: message` (a variant is never silently left out). Then the sources are
    /// registered — the `[sources.NAME]` kinds first, then files under `fileRoot` (when given),
    /// then http(s) URLs with the `[sources.http]` settings — and the cache layers are built
    /// (a memory layer when the folder configures none).
    ///
    /// ```swift
    /// let pipeline = try ImagePipeline(directory: "filters.d", fileRoot: "/srv/images")
    /// let avatar = try await pipeline.image(for: "cats/tom.jpg", variant: "avatar")
    /// let remote = try await pipeline.image(for: "https://example.com/cat.jpg", variant: "thumbnail")
    /// ```
    ///
    /// - Parameters:
    ///   - directory: the `filters.d/` folder, read alone (see
    ///     `ConfigLoader/load(directory:filters:writableFormats:)`).
    ///   - fileRoot: the folder relative locations are read from; `nil` serves no files.
    ///   - registry: the codecs, filters and cache and source kinds (``Registry/standard`` by
    ///     default; register your modules' filters in it first).
    /// - Throws: ``ConfigurationError`` listing every error of the folder, of its cache and
    ///   source tables, or of a layer that cannot be opened; `DarkroomError/io(path:detail:)`
    ///   when `fileRoot` is not a folder.
    public convenience init(directory: String, fileRoot: String? = nil, registry: Registry = .standard) throws {
        let configuration = ConfigLoader.load(
            directory: directory, filters: registry.filters, writableFormats: Set(registry.writableFormats))
        guard !configuration.hasErrors else { throw ConfigurationError(configuration.errors) }
        var sources = registry
        if let fileRoot { sources.register(source: try FileSource(root: fileRoot)) }
        sources.register(source: HTTPSource(settings: configuration.httpSourceSettings))
        let wired = try sources.registeringSources(of: configuration.sourceTables)
        let caches = try wired.cacheLayers(for: configuration.cacheSettings)
        self.init(configuration: Configuration(registry: wired, variants: configuration, caches: caches))
    }
}
