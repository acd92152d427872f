import Darkroom
import ExampleKinds
import Foundation
import Testing

// MARK: - A user's cache kind and source kind, with one import

/// What a module extending Darkroom does: register its kinds, select them from its own
/// `filters.d/`, render through ``ImagePipeline`` — with `import Darkroom` alone.
@Suite("A user's cache and source kinds are selected in filters.d and used by the pipeline")
struct ExampleKindsTests {
    /// A temporary folder holding `filters.d/`, `images/` and `shelf/`.
    final class Workspace {
        let root: String

        init() throws {
            root = FileManager.default.temporaryDirectory.path + "/darkroom-kinds-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: root + "/filters.d", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/images", withIntermediateDirectories: true)
            // Darkroom's own test fixture: Tests/ExamplePackage/Tests/ExampleKindsTests/ → Tests/Fixtures.
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/gradient.jpg").path
            try FileManager.default.copyItem(atPath: fixture, toPath: root + "/images/gradient.jpg")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: root + "/filters.d/" + name, atomically: true, encoding: .utf8)
        }

        /// Diagnostics as `file:line: message` with the file relative to `filters.d/`.
        func lines(_ diagnostics: [Diagnostic]) -> [String] {
            diagnostics.map { $0.description.replacingOccurrences(of: root + "/filters.d/", with: "") }
        }

        func configuration(registry: Registry) -> Configuration {
            ConfigLoader.load(directory: root + "/filters.d", filters: registry.filters)
        }
    }

    static let registry: Registry = {
        var registry = Registry.standard
        FolderCache.register(in: &registry)
        SampleSource.register(in: &registry)
        return registry
    }()

    static func standardTables(_ workspace: Workspace) -> String {
        """
        [variants.thumb]
        filters = [ { filter = "aspect-fit", width = 32, height = 32 } ]
        format = "png"

        [caches.memory]
        capacity = "10MB"

        [caches.shelf]
        type = "folder"
        path = "\(workspace.root)/shelf"

        [sources.samples]
        type = "samples"
        folder = "\(workspace.root)/images"
        """
    }

    func pipeline(_ configuration: Configuration) throws -> ImagePipeline {
        let registry = try Self.registry.registeringSources(of: configuration.sourceTables)
        let caches = try registry.cacheLayers(for: configuration.cacheSettings, environment: [:])
        return ImagePipeline(configuration: .init(registry: registry, variants: configuration, caches: caches))
    }

    @Test("rendered once, then served by the folder layer to a new pipeline, then by memory")
    func layersInOrder() async throws {
        let workspace = try Workspace()
        try workspace.write("10-kinds.toml", Self.standardTables(workspace))
        let configuration = workspace.configuration(registry: Self.registry)
        #expect(configuration.errors.isEmpty, "\(configuration.errors)")
        #expect(Self.registry.cacheDiagnostics(for: configuration.cacheSettings).isEmpty)

        let first = try await pipeline(configuration).image(for: "sample://gradient.jpg", variant: "thumb")
        #expect(first.cacheLayer == .rendered)
        #expect(first.format == .png)
        let shelved = try FileManager.default.subpathsOfDirectory(atPath: workspace.root + "/shelf").count
        #expect(shelved == 2, "one folder for the source, one file for the render")

        let restarted = try pipeline(configuration)
        let second = try await restarted.image(for: "sample://gradient.jpg", variant: "thumb")
        #expect(second.cacheLayer.rawValue == "shelf")
        #expect(second.bytes == first.bytes)
        let third = try await restarted.image(for: "sample://gradient.jpg", variant: "thumb")
        #expect(third.cacheLayer == .memory, "the shelf's hit filled the memory layer above it")
    }

    @Test("purge by source reaches the user's layer")
    func purgeBySource() async throws {
        let workspace = try Workspace()
        try workspace.write("10-kinds.toml", Self.standardTables(workspace))
        let configuration = workspace.configuration(registry: Self.registry)
        let pipeline = try pipeline(configuration)
        _ = try await pipeline.image(for: "sample://gradient.jpg", variant: "thumb")
        let results = await pipeline.configuration.caches.removeAll(forSource: "sample://gradient.jpg")
        let removed = results.map { ($0.layer, (try? $0.removed.get()) ?? -1) }
        #expect(removed.map(\.0) == ["memory", "shelf"])
        #expect(removed.map(\.1) == [1, 1])
    }

    @Test("a bad key or value in a user's table is an error at its file:line")
    func badKeys() throws {
        let workspace = try Workspace()
        try workspace.write("10-kinds.toml", """
            [caches.shelf]
            type = "folder"
            pth = "/tmp/x"

            [sources.samples]
            type = "samples"
            folder = 42
            """)
        let configuration = workspace.configuration(registry: Self.registry)
        let cacheLines = workspace.lines(Self.registry.cacheDiagnostics(for: configuration.cacheSettings))
        #expect(cacheLines == ["10-kinds.toml:3: unknown key 'pth' in [caches.shelf] (did you mean 'path'?); known keys: path, type, originals"])
        let sourceLines = workspace.lines(Self.registry.sourceDiagnostics(for: configuration.sourceTables))
        #expect(sourceLines == ["10-kinds.toml:7: [sources.samples] folder must be a non-empty string"])
        #expect(throws: ConfigurationError.self) { try Self.registry.cacheLayers(for: configuration.cacheSettings, environment: [:]) }
    }

    @Test("an unknown type names the registered kinds")
    func unknownType() throws {
        let workspace = try Workspace()
        try workspace.write("10-kinds.toml", "[caches.shelf]\ntype = \"foldr\"\n\n[caches.redis]\nservers = []\n\n[sources.htp]\ntimeout = \"1s\"\n")
        let configuration = workspace.configuration(registry: Self.registry)
        let lines = workspace.lines(Self.registry.cacheDiagnostics(for: configuration.cacheSettings))
        #expect(lines == [
            "10-kinds.toml:2: [caches.shelf] unknown cache type 'foldr' (did you mean 'folder'?); known kinds: disk, folder, memory",
            "10-kinds.toml:4: unknown cache 'redis'; give it a type (known kinds: disk, folder, memory)",
        ])
        #expect(workspace.lines(Self.registry.sourceDiagnostics(for: configuration.sourceTables)) == [
            "10-kinds.toml:7: unknown source 'htp' (did you mean 'http'?); give it a type (known kinds: http, s3, samples)"
        ])
    }

    @Test("a layer that fails is a miss: the request is rendered, not failed")
    func failingLayerIsAMiss() async throws {
        let workspace = try Workspace()
        // The shelf's path is a file: every read misses and every store throws.
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: workspace.root + "/shelf"))
        try workspace.write("10-kinds.toml", Self.standardTables(workspace))
        let configuration = workspace.configuration(registry: Self.registry)
        let pipeline = try pipeline(configuration)
        let response = try await pipeline.image(for: "sample://gradient.jpg", variant: "thumb")
        #expect(response.cacheLayer == .rendered)
        #expect(try await pipeline.image(for: "sample://gradient.jpg", variant: "thumb").cacheLayer == .memory)
    }
}
