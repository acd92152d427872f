import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Sharing work by stage

@Suite("Requests sharing work do it once, stage by stage")
struct PipelineCoalescingTests {
    @Test("eight concurrent requests for one source and variant load it once and render once")
    func oneLoadForMany() async throws {
        let source = GatedSource(["cat": PipelineFixture.photoJPEG])
        var configuration = PipelineFixture.configuration(source: source)
        let counters = StageCounters()
        configuration.counters = counters
        let pipeline = ImagePipeline(configuration: configuration)
        let tasks = (0..<8).map { _ in pipeline.request(ImageRequest(location: "gated:cat", variant: .named("circle"))) }
        #expect(await eventually { source.started.count == 1 })
        source.openAll()
        var bytes: [[UInt8]] = []
        for task in tasks { bytes.append(try await task.response.bytes) }
        #expect(source.loads(of: "gated:cat") == 1)
        #expect(Set(bytes).count == 1)
        #expect(counters.decodes == 1 && counters.encodes == 1 && counters.totalFilterRuns == 2)
    }

    @Test("[aspect-fill, circle] and [aspect-fill, rounded-corners] share one load, one decode and one aspect-fill")
    func sharedPrefix() async throws {
        let source = GatedSource(["cat": PipelineFixture.photoJPEG])
        var configuration = PipelineFixture.configuration(source: source)
        let counters = StageCounters()
        configuration.counters = counters
        let pipeline = ImagePipeline(configuration: configuration)
        let circle = pipeline.request(ImageRequest(location: "gated:cat", variant: .named("circle")))
        let rounded = pipeline.request(ImageRequest(location: "gated:cat", variant: .named("rounded")))
        #expect(await eventually { source.started.count == 1 && pipeline.activity.attachedRenders == 2 })
        source.openAll()
        let a = try await circle.response, b = try await rounded.response
        #expect(source.loads(of: "gated:cat") == 1)
        #expect(counters.decodes == 1)
        #expect(counters.filterRuns[PipelineFixture.circle.chain.prefixIdentifiers[0]] == 1)
        #expect(counters.filterRuns.count == 3)
        #expect(counters.totalFilterRuns == 3)
        #expect(counters.encodes == 2)
        #expect(a.cacheLayer == .rendered && b.cacheLayer == .rendered)
        #expect(a.image?.size == PixelSize(width: 64, height: 64))

        // The same pixels VariantRenderer makes from the same bytes.
        let direct = try VariantRenderer(registry: PipelineFixture.registry)
            .render(PipelineFixture.photoJPEG, targets: [PipelineFixture.circle, PipelineFixture.rounded])
        #expect(a.bytes == direct[0].bytes && b.bytes == direct[1].bytes)
    }

    @Test("a batch shares the load and one decode per distinct scale; each variant comes out as it would alone")
    func batchOneDecode() async throws {
        let source = GatedSource(["cat": PipelineFixture.photoJPEG])
        source.openAll()
        var configuration = PipelineFixture.configuration(source: source)
        let counters = StageCounters()
        configuration.counters = counters
        let pipeline = ImagePipeline(configuration: configuration)
        let responses = try await pipeline.images(for: "gated:cat", variants: ["thumbnail", "circle", "rounded"])
        #expect(responses.map(\.variant) == ["thumbnail", "circle", "rounded"])
        #expect(responses.map(\.format) == [.jpeg, .png, .png])
        let targets = [PipelineFixture.thumbnail, PipelineFixture.circle, PipelineFixture.rounded]
        // thumbnail needs the full 320×240; circle and rounded share a 1/2-scale decode.
        let decodes = try PipelineFixture.distinctDecodes(targets, of: PipelineFixture.photoJPEG)
        #expect(decodes == 2)
        #expect(counters.decodes == decodes)
        #expect(source.loads(of: "gated:cat") == 1)
        let direct = try VariantRenderer(registry: PipelineFixture.registry).render(PipelineFixture.photoJPEG, targets: targets)
        #expect(responses.map(\.bytes) == direct.map(\.bytes))
        #expect(responses.map(\.bytes) == (try PipelineFixture.renderedAlone(targets, of: PipelineFixture.photoJPEG)))

        let again = try await pipeline.images(for: "gated:cat", variants: ["circle", "thumbnail"])
        #expect(again.map(\.cacheLayer) == [.memory, .memory])
        #expect(counters.decodes == decodes)
    }

    @Test("the original variant returns the source's bytes and format, sharing the load")
    func original() async throws {
        let source = GatedSource(["cat": PipelineFixture.photoJPEG])
        let pipeline = ImagePipeline(configuration: PipelineFixture.configuration(source: source))
        let original = pipeline.request(ImageRequest(location: "gated:cat", variant: .original))
        let circle = pipeline.request(ImageRequest(location: "gated:cat", variant: .named("circle")))
        #expect(await eventually { source.started.count == 1 && pipeline.activity.attachedRenders == 2 })
        source.openAll()
        let response = try await original.response
        _ = try await circle.response
        #expect(response.bytes == PipelineFixture.photoJPEG && response.format == .jpeg && response.cacheLayer == .source)
        #expect(source.loads(of: "gated:cat") == 1)
    }
}
