@testable import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Cancelling requests over HTTP

@Suite("PipelineHTTP: a cancelled request ends at once; the transfer is aborted when nobody wants it")
struct PipelineHTTPCancellationTests {
    let http: HTTPPipelineFixture

    init() async throws {
        http = try await HTTPPipelineFixture.start()
    }

    /// A URL the server answers only once the test calls `http.server.release(test)`: its
    /// transfer stays in flight for as long as the test needs, however loaded the machine.
    func heldPath(_ test: String) -> String {
        "/image/\(HTTPPipelineFixture.imageName)?test=\(test)&hold=\(test)"
    }

    @Test("one of two waiters cancels: it gets CancellationError before the transfer ends, the other gets the image")
    func oneOfTwo() async throws {
        let pipeline = ImagePipeline(configuration: http.configuration())
        let path = heldPath("one-of-two")
        let leaving = pipeline.request(ImageRequest(location: http.url(path), variant: .named("circle")))
        let staying = pipeline.request(ImageRequest(location: http.url(path), variant: .named("circle")))
        #expect(await http.server.wait(timeout: 120) { http.server.hits(path) == 1 })
        // The cancelled waiter is awaited on a thread of its own, so what it sees on resuming
        // (the time, the server's log) is not delayed by a cooperative pool other suites fill.
        let server = http.server
        let cancelled = Task(executorPreference: SerialQueueTaskExecutor(label: "test.http-cancelled")) {
            let cancelledAt = ContinuousClock.now
            leaving.cancel()
            let error = await thrownError { _ = try await leaving.response }
            return (error, ContinuousClock.now - cancelledAt, server.finished(path).isEmpty)
        }
        let (error, waited, transferRunning) = await cancelled.value
        #expect(error is CancellationError, "got \(String(describing: error))")
        #expect(transferRunning, "the transfer ended before the cancelled waiter was answered")
        #expect(waited < .seconds(2))
        #expect(!staying.isFinished)

        http.server.release("one-of-two")
        let response = try await staying.response
        #expect(response.bytes == (try HTTPPipelineFixture.expected([PipelineFixture.circle]))[0])
        // The server may log the end just after the client has the body: wait for it.
        #expect(await http.server.wait(timeout: 120) { !http.server.finished(path).isEmpty })
        #expect(http.server.finished(path).map(\.outcome) == ["completed"])
        #expect(http.server.hits(path) == 1)
    }

    @Test("when both waiters cancel, the server sees the transfer aborted")
    func bothCancel() async throws {
        let pipeline = ImagePipeline(configuration: http.configuration())
        let path = heldPath("both")
        let first = pipeline.request(ImageRequest(location: http.url(path), variant: .named("circle")))
        let second = pipeline.request(ImageRequest(location: http.url(path), variant: .named("gray")))
        #expect(await http.server.wait(timeout: 120) { http.server.hits(path) == 1 })
        first.cancel()
        second.cancel()
        await #expect(throws: CancellationError.self) { try await first.response }
        await #expect(throws: CancellationError.self) { try await second.response }
        #expect(await http.server.wait(timeout: 120) { !http.server.finished(path).isEmpty })
        #expect(http.server.finished(path).map(\.outcome) == ["aborted"])
        #expect(await eventually { pipeline.activity.sessions == 0 && pipeline.activity.renderJobs == 0 })
    }

    @Test("cancelling the Swift task awaiting image(for:variant:) ends it at once and aborts the transfer")
    func swiftTaskCancellation() async throws {
        let pipeline = ImagePipeline(configuration: http.configuration())
        let path = heldPath("swift-task")
        let url = http.url(path)
        // The awaiting task runs on its own thread, so a cooperative pool filled by other
        // suites cannot delay its start or its cancellation.
        let waiting = Task(executorPreference: SerialQueueTaskExecutor(label: "test.http-awaiting")) {
            try await pipeline.image(for: url, variant: "circle")
        }
        #expect(await http.server.wait(timeout: 120) { http.server.hits(path) == 1 })
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(await http.server.wait(timeout: 120) { !http.server.finished(path).isEmpty })
        #expect(http.server.finished(path).map(\.outcome) == ["aborted"])
    }

    @Test("a queued request cancelled before its turn never reaches the server")
    func queuedNeverSent() async throws {
        var configuration = http.configuration()
        configuration.maximumActiveDownloads = 1
        let pipeline = ImagePipeline(configuration: configuration)
        // Held until cancelled below, so the slot cannot free itself before the second request
        // is queued.
        let busy = heldPath("queued")
        let queued = "/image/\(HTTPPipelineFixture.imageName)?test=queued&n=cancelled"
        let running = pipeline.request(ImageRequest(location: http.url(busy), variant: .named("gray")))
        #expect(await http.server.wait(timeout: 120) { http.server.hits(busy) == 1 })
        let cancelled = pipeline.request(ImageRequest(location: http.url(queued), variant: .named("gray")))
        #expect(await eventually { pipeline.activity.queuedDownloads == 1 })
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.response }
        #expect(pipeline.activity.queuedDownloads == 0)
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.response }
        // A request made after the slot freed is answered: the cancelled one never went out.
        let after = "/image/\(HTTPPipelineFixture.imageName)?test=queued&n=after"
        _ = try await pipeline.image(for: http.url(after), variant: "gray")
        #expect(http.server.hits(queued) == 0)
        #expect(http.server.hits(after) == 1)
    }

    @Test("cancelling a request whose fetch waits to retry (Retry-After) frees the slot and sends no retry")
    func cancelDuringRetryWait() async throws {
        var configuration = http.configuration()
        configuration.maximumActiveDownloads = 1
        let pipeline = ImagePipeline(configuration: configuration)
        // Retry-After 100 s: the slot frees well before that only if the wait is cancelled.
        let unavailable = "/status/503?retry-after=100&test=retry-wait"
        let waiting = pipeline.request(ImageRequest(location: http.url(unavailable), variant: .named("gray")))
        #expect(await http.server.wait(timeout: 120) { http.server.finished(unavailable).count == 1 })
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.response }
        // A download slot is held until the source's load returns: it is free now (not after
        // the 100 s wait) only if the load stopped waiting when cancelled.
        #expect(await eventually(30) { pipeline.activity.activeDownloads == 0 })
        let next = "/image/\(HTTPPipelineFixture.imageName)?test=retry-wait"
        let response = try await pipeline.image(for: http.url(next), variant: "gray")
        #expect(response.cacheLayer == .rendered)
        #expect(http.server.hits(unavailable) == 1)
        #expect(await eventually { pipeline.activity.sessions == 0 && pipeline.activity.activeDownloads == 0 })
    }

    @Test("a request after a cancelled one fetches the URL again and succeeds")
    func laterRequest() async throws {
        let pipeline = ImagePipeline(configuration: http.configuration())
        let path = heldPath("later")
        let cancelled = pipeline.request(ImageRequest(location: http.url(path), variant: .named("gray")))
        #expect(await http.server.wait(timeout: 120) { http.server.hits(path) == 1 })
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.response }
        // The abandoned transfer is aborted; only then does the server answer the URL.
        #expect(await http.server.wait(timeout: 120) { http.server.finished(path).map(\.outcome) == ["aborted"] })
        http.server.release("later")
        let response = try await pipeline.image(for: http.url(path), variant: "gray")
        #expect(response.cacheLayer == .rendered)
        #expect(response.bytes == (try HTTPPipelineFixture.expected([PipelineFixture.gray]))[0])
        #expect(http.server.hits(path) == 2)
    }
}
