import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Options from the environment, and readiness

@Suite("darkroom-server takes every option from the environment too, the command line winning; /ready checks the caches")
struct ServerEnvironmentTests {
    @Test("DARKROOM_MAX_AGE and DARKROOM_METRICS apply; --max-age beats DARKROOM_MAX_AGE; a bad flag value is a usage error")
    func environment() async throws {
        let fixture = try ServerFixture()
        let fromEnvironment = try await ServerProcess.start(
            ["--root", fixture.root.url.path, "--no-remote"], environment: ["DARKROOM_MAX_AGE": "123", "DARKROOM_METRICS": "1"])
        let image = try await RawHTTPClient.send("GET", "/thumbnail/gradient.jpg", port: fromEnvironment.port)
        #expect(image.header("cache-control") == "public, max-age=123")
        #expect(try await RawHTTPClient.send("GET", "/metrics", port: fromEnvironment.port).status == 200)
        _ = try await fromEnvironment.stop()

        let flagWins = try await ServerProcess.start(
            ["--root", fixture.root.url.path, "--no-remote", "--max-age", "5"], environment: ["DARKROOM_MAX_AGE": "123", "DARKROOM_METRICS": "no"])
        let answer = try await RawHTTPClient.send("GET", "/thumbnail/gradient.jpg", port: flagWins.port)
        #expect(answer.header("cache-control") == "public, max-age=5")
        #expect(try await RawHTTPClient.send("GET", "/metrics", port: flagWins.port).status == 404)
        _ = try await flagWins.stop()

        let refused = try await ServerProcessOutcome.run(
            ["--root", fixture.root.url.path], environment: ["DARKROOM_METRICS": "maybe"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("$DARKROOM_METRICS is 'maybe'"), "\(refused.stderr)")
        let badNumber = try await ServerProcessOutcome.run(["--root", fixture.root.url.path], environment: ["DARKROOM_JOBS": "many"])
        #expect(badNumber.status == 64 && badNumber.stderr.contains("many"), "\(badNumber.stderr)")
        let negative = try await ServerProcessOutcome.run(["--root", fixture.root.url.path], environment: ["DARKROOM_MAX_FRESHNESS": "-5"])
        #expect(negative.status == 64 && negative.stderr.contains("--max-freshness -5 is negative"), "\(negative.stderr)")
    }

    @Test("/ready is 200 while memcached answers, 503 naming the layer once it is gone; /health stays 200")
    func readiness() async throws {
        let cluster = try await TestCluster.start(servers: 1)
        let port = cluster.nodes[0].port
        let ready = try await RawHTTPClient.send("GET", "/ready", port: port)
        #expect(ready.status == 200 && ready.text == "ready\n", "\(ready.text)")
        for memcached in cluster.memcached { memcached.kill() }
        var notReady = try await RawHTTPClient.send("GET", "/ready", port: port)
        let deadline = ContinuousClock.now + .seconds(60)
        while notReady.status == 200, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            notReady = try await RawHTTPClient.send("GET", "/ready", port: port)
        }
        #expect(notReady.status == 503 && notReady.text.contains("[caches.shared]"), "\(notReady.text)")
        #expect(try await RawHTTPClient.send("GET", "/health", port: port).status == 200)
        #expect(try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port).status == 200, "still serving")
        try await cluster.stop()
    }
}
