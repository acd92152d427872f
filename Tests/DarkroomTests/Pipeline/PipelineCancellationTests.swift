@testable import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Cancellation

@Suite("A cancelled request ends at once; shared work stops only when nobody wants it")
struct PipelineCancellationTests {
    func setUp(maximumActiveDownloads: Int = 4) -> (ImagePipeline, GatedSource) {
        let source = GatedSource(["a": PipelineFixture.photoJPEG, "b": PipelineFixture.photoJPEG])
        var configuration = PipelineFixture.configuration(source: source)
        configuration.maximumActiveDownloads = maximumActiveDownloads
        return (ImagePipeline(configuration: configuration), source)
    }

    @Test("one of two waiters cancels: it gets CancellationError now, the other still gets the image")
    func oneOfTwo() async throws {
        let (pipeline, source) = setUp()
        let leaving = pipeline.request(ImageRequest(location: "gated:a", variant: .named("circle")))
        let staying = pipeline.request(ImageRequest(location: "gated:a", variant: .named("circle")))
        #expect(await eventually { source.started.count == 1 })
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.response }
        #expect(leaving.isFinished && !staying.isFinished)
        source.openAll()
        let response = try await staying.response
        #expect(response.image?.size == PixelSize(width: 64, height: 64))
        #expect(source.cancelled.isEmpty)
    }

    @Test("when every waiter cancels, the source's load sees Task cancellation")
    func allCancel() async throws {
        let (pipeline, source) = setUp()
        let first = pipeline.request(ImageRequest(location: "gated:a", variant: .named("circle")))
        let second = pipeline.request(ImageRequest(location: "gated:a", variant: .named("gray")))
        // Both renders on the one session first: a render attaching after the first cancel found
        // its fetch abandoned and rightly started a second load (a full CI run on a loaded
        // machine, 2026-11-28: two cancelled loads, not one).
        #expect(await eventually { source.started.count == 1 && pipeline.activity.attachedRenders == 2 })
        first.cancel()
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.response }
        #expect(
            await eventually { source.cancelled == ["gated:a"] },
            "loads started: \(source.started), cancelled: \(source.cancelled), finished: \(source.finished)")
        #expect(await eventually { pipeline.activity.sessions == 0 && pipeline.activity.renderJobs == 0 })
    }

    @Test("cancelling the Swift task awaiting a request cancels it the same way")
    func swiftTaskCancellation() async throws {
        let (pipeline, source) = setUp()
        // The awaiting task runs on its own thread: other suites' synchronous tests may fill the
        // cooperative pool for seconds, and this test is about cancellation, not about them.
        let executor = SerialQueueTaskExecutor(label: "test.awaiting")
        let waiting = Task(executorPreference: executor) { try await pipeline.image(for: "gated:a", variant: "circle") }
        #expect(await eventually { source.started.count == 1 })
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(await eventually { source.cancelled == ["gated:a"] })
    }

    @Test("queued work whose requests are cancelled leaves the queue and never runs")
    func queuedNeverRuns() async throws {
        let (pipeline, source) = setUp(maximumActiveDownloads: 1)
        let running = pipeline.request(ImageRequest(location: "gated:a", variant: .named("gray")))
        #expect(await eventually { source.started == ["gated:a"] })
        let queued = pipeline.request(ImageRequest(location: "gated:b", variant: .named("gray")))
        #expect(await eventually { pipeline.activity.queuedDownloads == 1 })
        queued.cancel()
        #expect(await eventually { pipeline.activity.queuedDownloads == 0 })
        source.openAll()
        _ = try await running.response
        await #expect(throws: CancellationError.self) { try await queued.response }
        try await Task.sleep(for: .milliseconds(50))
        #expect(source.started == ["gated:a"])
    }

    @Test("a cancelled request does not stop a later request for the same image")
    func laterRequest() async throws {
        let (pipeline, source) = setUp()
        let cancelled = pipeline.request(ImageRequest(location: "gated:a", variant: .named("gray")))
        #expect(await eventually { source.started.count == 1 })
        cancelled.cancel()
        #expect(await eventually { source.cancelled.count == 1 })
        source.openAll()
        let response = try await pipeline.image(for: "gated:a", variant: "gray")
        #expect(response.cacheLayer == .rendered)
        #expect(source.loads(of: "gated:a") == 2)
    }
}
