import Darkroom
import DarkroomConfig
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - One render, whichever way it runs

/// The CLI's inline executor (`CachingRenderer` over `VariantRenderer`) and the staged async
/// one (`ImagePipeline`, the server's) must give every shipped variant of every sample the same
/// bytes under the same cache key: a disk cache shared by `darkroom batch` and the server works
/// only while they do.
@Suite("Every shipped variant of every sample renders to the same bytes and key through both executors")
struct ExecutorIdentityTests {
    static let repository = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()

    @Test("inline and staged executors agree byte for byte, and the staged one hits what the inline one stored")
    func bothExecutorsAgree() async throws {
        let configuration = ConfigLoader.load(
            directory: Self.repository.appendingPathComponent("filters.d").path, filters: ShippedRegistry.registry.filters)
        #expect(configuration.errors.isEmpty)
        let targets = configuration.variants.map(RenderTarget.init(variant:))
        let samples = Self.repository.appendingPathComponent("Samples").path
        let names = try FileManager.default.contentsOfDirectory(atPath: samples).filter { !$0.hasSuffix(".md") }.sorted()
        #expect(names.count >= 6)

        let cacheFolder = try TemporaryDirectory()
        let disk = try DiskCache(directory: cacheFolder.url.path)
        let inline = CachingRenderer(renderer: VariantRenderer(registry: ShippedRegistry.registry), caches: .standard(disk: disk))
        var registry = ShippedRegistry.registry
        registry.register(source: try FileSource(root: samples))
        var staged = ImagePipeline.Configuration(registry: registry, targets: targets, caches: .none)
        // One processing thread: this test renders a lot, and the other suites run beside it.
        staged.maximumActiveProcessing = 1
        let pipeline = ImagePipeline(configuration: staged)
        // The same pipeline over the inline executor's disk layer: every answer must be a hit.
        let sharing = ImagePipeline(configuration: .init(registry: registry, targets: targets, caches: .standard(disk: disk)))

        var compared = 0
        for name in names {
            let path = samples + "/" + name
            let outputs = try inline.render(try SourceReference.file(path), targets: targets)
            let responses = try await pipeline.images(for: name, variants: targets.map(\.name))
            let shared = try await sharing.images(for: name, variants: targets.map(\.name))
            for (output, (response, hit)) in zip(outputs, zip(responses, shared)) {
                #expect(output.layer == .rendered)
                #expect(response.cacheLayer == .rendered)
                #expect(response.format == output.format, "\(name) \(output.name)")
                #expect(response.bytes == output.bytes, "\(name) \(output.name): the executors differ")
                #expect(hit.cacheLayer == .disk, "\(name) \(output.name): the keys differ")
                #expect(hit.bytes == output.bytes)
                compared += 1
            }
        }
        #expect(compared == names.count * targets.count)
    }
}
