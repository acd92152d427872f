import Darkroom
import DarkroomCache
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Embedding

/// The pipeline as an embedding app calls it: `image(for:variant:)` from many tasks at once.
@Suite("An embedding app's calls: coalesced, cancellable, cached, and never poisoned by a failure")
struct PipelineEmbeddingTests {
    @Test("a task cancelled before it calls the pipeline throws CancellationError without waiting for the source")
    func cancelledBeforeStart() async throws {
        let source = GatedSource(["a": PipelineFixture.photoJPEG])  // never opened
        let pipeline = ImagePipeline(configuration: PipelineFixture.configuration(source: source))
        let result = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pipeline.image(for: "gated:a", variant: "circle")
        }.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(await eventually { pipeline.activity.sessions == 0 && pipeline.activity.renderJobs == 0 })
    }

    @Test("a memory-cache hit returns without loading or decoding")
    func memoryHit() async throws {
        let source = GatedSource(["a": PipelineFixture.photoJPEG])
        source.openAll()
        var configuration = PipelineFixture.configuration(source: source)
        let counters = StageCounters()
        configuration.counters = counters
        let pipeline = ImagePipeline(configuration: configuration)
        let first = try await pipeline.image(for: "gated:a", variant: "circle")
        let second = try await pipeline.image(for: "gated:a", variant: "circle")
        #expect(first.cacheLayer == .rendered && second.cacheLayer == .memory && second.bytes == first.bytes)
        #expect(counters.decodes == 1 && source.loads(of: "gated:a") == 1)
    }

    @Test("hundreds of concurrent calls for 10 sources × 3 variants finish, with one load per source")
    func manyConcurrent() async throws {
        let names = (0..<10).map { "s\($0)" }
        let source = GatedSource(Dictionary(uniqueKeysWithValues: names.map { ($0, PipelineFixture.photoJPEG) }))
        var configuration = PipelineFixture.configuration(source: source)
        configuration.maximumActiveDownloads = names.count
        let pipeline = ImagePipeline(configuration: configuration)
        let variants = ["circle", "rounded", "gray"]
        let sizes = try await withThrowingTaskGroup(of: PixelSize?.self) { group in
            for index in 0..<300 {
                let location = "gated:" + names[index % names.count]
                let variant = variants[(index / names.count) % variants.count]
                group.addTask { try ImageProbe.probe(await pipeline.image(for: location, variant: variant).bytes).size }
            }
            // Every (source, variant) render has started and every load is waiting: later calls join or hit memory.
            // Generous: under the full parallel test run the 300 tasks can take long to all start
            // (a run with three-server cluster suites beside it took over 120 s).
            #expect(await eventually(600) { pipeline.activity.renderJobs == 30 && source.started.count == names.count })
            source.openAll()
            var sizes: [PixelSize?] = []
            for try await size in group { sizes.append(size) }
            return sizes
        }
        #expect(sizes.count == 300 && sizes.allSatisfy { $0 != nil })
        #expect(names.allSatisfy { source.loads(of: "gated:" + $0) == 1 })
    }

    @Test("bytes that fail as an image are not served again once the source is fixed")
    func fixedSourceRetries() async throws {
        let junk = Array("<html>oops</html>".utf8)
        let origin = RevalidatingSource(bytes: junk, maxAge: nil)
        let pipeline = ImagePipeline(configuration: PipelineFixture.configuration(source: origin))
        await #expect(throws: DarkroomError.self) { try await pipeline.image(for: "origin:cat", variant: "circle") }
        origin.replace(with: PipelineFixture.photoJPEG)
        let response = try await pipeline.image(for: "origin:cat", variant: "circle")
        #expect(response.cacheLayer == .rendered)
    }

    @Test("with stored originals, bytes that are no image are not stored, so a fixed source is asked again")
    func badOriginalNotStored() async throws {
        let cacheFolder = try TemporaryDirectory()
        let origin = RevalidatingSource(bytes: Array("<html>oops</html>".utf8), maxAge: 3600)
        var configuration = PipelineFixture.configuration(
            source: origin, disk: try DiskCache(directory: cacheFolder.url.path))
        configuration.caches = configuration.caches.keepingOriginals(in: "disk")
        let pipeline = ImagePipeline(configuration: configuration)
        await #expect(throws: DarkroomError.self) { try await pipeline.image(for: "origin:cat", variant: "circle") }
        origin.replace(with: PipelineFixture.photoJPEG)
        let response = try await pipeline.image(for: "origin:cat", variant: "circle")
        #expect(response.cacheLayer == .rendered)
        #expect(origin.fullLoads == 2)
    }
}
