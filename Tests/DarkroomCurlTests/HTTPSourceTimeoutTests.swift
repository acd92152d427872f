import DarkroomCore
import DarkroomCurl
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Timeouts and cancellation

@Suite("HTTPSource cuts slow transfers, times out, and aborts at once when cancelled")
struct HTTPSourceTimeoutTests {
    let server: LoopbackHTTPServer

    init() async throws {
        server = try await LoopbackHTTPServer.launch()
    }

    /// Loads `path` with `settings`, off the cooperative pool (the time must not include other
    /// tests' use of it): the failure's reason and kind, and how long the load took.
    func timedFailure(
        _ settings: HTTPSourceSettings, _ path: String
    ) async -> (reason: String, kind: FetchFailureKind?, took: Duration) {
        await offThePool { _ in
            let started = ContinuousClock.now
            let failure = await expectFetchFailure { _ = try await HTTPSource(settings: settings).load(server.url(path)) }
            return (failure.reason, failure.kind, ContinuousClock.now - started)
        }
    }

    @Test("a trickle below the low-speed limit is cut and not retried")
    func lowSpeed() async {
        var settings = HTTPSourceSettings.loopback
        settings.lowSpeedLimit = 1000
        settings.lowSpeedTime = 1
        let failure = await timedFailure(settings, "/trickle?bytes=100000&rate=100")
        #expect(failure.reason == "transfer too slow: less than 1000 bytes/s for 1 s (low-speed limit)")
        #expect(failure.kind == .timedOut)
        #expect(failure.took < .seconds(8))
        #expect(server.hits("/trickle?bytes=100000&rate=100") == 1)
    }

    @Test("the total timeout ends a transfer that keeps moving, and says which timeout")
    func totalTimeout() async {
        var settings = HTTPSourceSettings.loopback
        settings.totalTimeout = 0.6
        let failure = await timedFailure(settings, "/slow/gradient.jpg?seconds=5")
        #expect(failure.reason == "timed out after 600 ms (total timeout)")
        #expect(failure.kind == .timedOut)
        #expect(failure.took < .seconds(4))
        #expect(server.hits("/slow/gradient.jpg?seconds=5") == 1)
    }

    @Test("cancelling a slow load throws long before the transfer would end, and the server sees the abort")
    func cancellation() async throws {
        let source = HTTPSource(settings: .loopback)
        let path = "/slow/gradient.jpg?seconds=10"
        let url = server.url(path)
        try await offThePool { executor in
            let task = Task(executorPreference: executor) { try await source.load(url) }
            #expect(await server.wait(timeout: 5) { server.hits(path) == 1 })
            try await Task.sleep(nanoseconds: 200_000_000)
            let cancelled = ContinuousClock.now
            task.cancel()
            do {
                _ = try await task.value
                Issue.record("the load finished despite cancellation")
            } catch {
                #expect(error as? DarkroomError == .cancelled)
            }
            #expect(ContinuousClock.now - cancelled < .seconds(3))
        }
        #expect(await server.wait(timeout: 5) { server.finished(path).first?.outcome == "aborted" })
        #expect(source.statistics.retries == 0)
    }

    @Test("a load cancelled before it starts throws without a request")
    func cancelledBeforeStart() async {
        let source = HTTPSource(settings: .loopback)
        let url = server.url("/image/gradient.jpg?early=1")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await source.load(url)
        }
        await #expect(throws: DarkroomError.cancelled) { _ = try await task.value }
        #expect(server.hits("/image/gradient.jpg?early=1") == 0)
    }
}
