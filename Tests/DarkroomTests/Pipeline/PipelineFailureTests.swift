import Darkroom
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Testing

// MARK: - Failures

@Suite("Failures reach every waiter with the real error, are never cached, and can fall back")
struct PipelineFailureTests {
    let notFound = DarkroomError.fetchFailed(url: "gated:bad", status: 404, reason: "HTTP 404 Not Found")

    @Test("a failed load reaches every waiter with the source's error, and the next request loads again")
    func failureReachesEveryone() async throws {
        let source = GatedSource(["bad": PipelineFixture.photoJPEG])
        source.fail("gated:bad", with: notFound)
        let pipeline = ImagePipeline(configuration: PipelineFixture.configuration(source: source))
        let tasks = ["circle", "gray", "circle"].map { pipeline.request(ImageRequest(location: "gated:bad", variant: .named($0))) }
        #expect(await eventually { source.started.count == 1 })
        source.openAll()
        for task in tasks {
            await #expect(throws: notFound) { try await task.response }
        }
        await #expect(throws: notFound) { try await pipeline.image(for: "gated:bad", variant: "circle") }
        #expect(source.loads(of: "gated:bad") == 2)
    }

    @Test("bytes that are no image fail with the probe's error")
    func notAnImage() async throws {
        let source = GatedSource(["junk": Array("<html>not an image</html>".utf8)])
        source.openAll()
        let pipeline = ImagePipeline(configuration: PipelineFixture.configuration(source: source))
        await #expect(throws: DarkroomError.self) { try await pipeline.image(for: "gated:junk", variant: "gray") }
        let error = await #expect(throws: DarkroomError.self) { try await pipeline.image(for: "gated:junk", variant: "gray") }
        guard case .unrecognizedFormat = error else {
            Issue.record("expected unrecognizedFormat, got \(String(describing: error))")
            return
        }
    }

    @Test("an unknown variant is refused with the nearest name")
    func unknownVariant() async throws {
        let pipeline = ImagePipeline(configuration: PipelineFixture.configuration(source: GatedSource([:])))
        await #expect(throws: DarkroomError.invalidArgument(
            name: "variant", value: "circel", expected: "a configured variant (did you mean 'circle'?)")
        ) { try await pipeline.image(for: "gated:a", variant: "circel") }
    }

    @Test("with a fallback, a failed source gets the placeholder through the variant, marked, with the error")
    func fallback() async throws {
        let source = GatedSource([:])
        source.fail("gated:bad", with: notFound)
        source.openAll()
        var configuration = PipelineFixture.configuration(source: source)
        configuration.fallback = PipelineFixture.placeholderPNG
        let pipeline = ImagePipeline(configuration: configuration)
        let response = try await pipeline.image(for: "gated:bad", variant: "circle")
        #expect(response.isFallback)
        #expect(response.fallbackError as? DarkroomError == notFound)
        let expected = try VariantRenderer(registry: PipelineFixture.registry)
            .render(PipelineFixture.placeholderPNG, targets: [PipelineFixture.circle])
        #expect(response.bytes == expected[0].bytes)

        // The failure is not cached under the source: the next request asks the source again.
        let again = try await pipeline.image(for: "gated:bad", variant: "circle")
        #expect(again.isFallback)
        #expect(source.loads(of: "gated:bad") == 2)
    }

    @Test("a file that does not exist falls back too")
    func missingFileFallback() async throws {
        let folder = try TemporaryDirectory()
        var configuration = PipelineFixture.configuration(source: try FileSource(root: folder.url.path))
        configuration.fallback = PipelineFixture.placeholderPNG
        let pipeline = ImagePipeline(configuration: configuration)
        let response = try await pipeline.image(for: "missing.jpg", variant: "gray")
        #expect(response.isFallback)
        guard case .io = response.fallbackError as? DarkroomError else {
            Issue.record("expected an io error, got \(String(describing: response.fallbackError))")
            return
        }
        #expect(response.image?.size == PixelSize(width: 64, height: 48))
    }
}
