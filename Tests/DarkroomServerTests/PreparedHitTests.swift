import Darkroom
@testable import DarkroomServer
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Memory hits answered with remembered header fields

@Suite("Memory hits answered with remembered headers are the whole path's answers, and follow the file and the cache")
struct PreparedHitTests {
    static let token = "prepared-hit-token-0123456789"

    /// A response's headers without the ones that differ per request.
    func lasting(_ response: RawHTTPClient.Response) -> [String: String] {
        response.headers.filter { $0.key != "x-request-id" && $0.key != "date" }
    }

    /// A server over `fixture` that logs warnings only, with metrics and the admin endpoint.
    func start(_ fixture: ServerFixture) async throws -> (ServerProcess, TemporaryDirectory) {
        let config = try TemporaryDirectory(prefix: "darkroom-server-config")
        try ServerFixture.configurationText.write(toFile: config.path("10-server.toml"), atomically: true, encoding: .utf8)
        let server = try await ServerProcess.start(
            ["--config", config.url.path, "--root", fixture.root.url.path, "--no-remote", "--log-level", "warning", "--metrics"],
            environment: ["DARKROOM_ADMIN_TOKEN": Self.token])
        return (server, config)
    }

    @Test("repeated GETs get the same headers and bytes with their own request ids; HEAD, If-None-Match and metrics as before")
    func repeatedHits() async throws {
        let fixture = try ServerFixture()
        let (server, config) = try await start(fixture)
        let port = server.port
        let rendered = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port)
        #expect(rendered.status == 200 && rendered.header("x-darkroom-cache") == "rendered", "\(rendered.text)")
        let hit = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port)
        #expect(hit.header("x-darkroom-cache") == "memory")
        var ids: Set<String> = [try #require(hit.header("x-request-id"))]
        for _ in 0..<3 {
            let again = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port)
            #expect(again.status == 200 && lasting(again) == lasting(hit) && again.body == rendered.body)
            ids.insert(try #require(again.header("x-request-id")))
        }
        #expect(ids.count == 4)
        let traced = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port, headers: ["X-Request-ID": "trace-7"])
        #expect(traced.header("x-request-id") == "trace-7" && lasting(traced) == lasting(hit))

        let head = try await RawHTTPClient.send("HEAD", "/thumb/gradient.jpg", port: port)
        #expect(head.status == 200 && head.body.isEmpty && head.header("content-length") == hit.header("content-length"))
        let tag = try #require(hit.header("etag"))
        let notModified = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port, headers: ["If-None-Match": tag])
        #expect(notModified.status == 304 && notModified.body.isEmpty)

        let metrics = try await RawHTTPClient.send("GET", "/metrics", port: port)
        #expect(metrics.text.contains(#"darkroom_http_responses_total{status="200"} 7"#), "\(metrics.text)")
        #expect(metrics.text.contains(#"darkroom_http_responses_total{status="304"} 1"#), "\(metrics.text)")
        #expect(try await server.stop() == 0)
        withExtendedLifetime(config) {}
    }

    @Test("every hit is in the access log as the whole path logs it: status, bytes, cache layer and request id")
    func hitsAreLogged() async throws {
        let fixture = try ServerFixture()
        let config = try TemporaryDirectory(prefix: "darkroom-server-config")
        try ServerFixture.configurationText.write(toFile: config.path("10-server.toml"), atomically: true, encoding: .utf8)
        let server = try await ServerProcess.start(
            ["--config", config.url.path, "--root", fixture.root.url.path, "--no-remote", "--log-format", "json"])
        var bodies: [[UInt8]] = []
        for index in 1...4 {
            let response = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: server.port, headers: ["X-Request-ID": "hit-\(index)"])
            #expect(response.status == 200 && response.header("x-request-id") == "hit-\(index)")
            bodies.append(response.body)
        }
        let lines = try await ServerOperationsTests.lines(of: server) { $0.filter { $0.contains("\"hit-") }.count >= 4 }
        let entries = lines.compactMap(ServerOperationsTests.object).filter { ($0["request_id"] as? String)?.hasPrefix("hit-") == true }
        #expect(entries.count == 4, "\(lines)")
        for (index, body) in bodies.enumerated() {
            let entry = try #require(entries.first { $0["request_id"] as? String == "hit-\(index + 1)" }, "\(lines)")
            #expect(entry["message"] as? String == "GET /thumb/gradient.jpg 200" && entry["status"] as? Int == 200, "\(entry)")
            #expect(entry["bytes"] as? Int == body.count && entry["cache"] as? String == (index == 0 ? "rendered" : "memory"), "\(entry)")
            #expect(entry["level"] as? String == "info" && entry["duration_ms"] is Double, "\(entry)")
        }
        _ = try await server.stop()
        withExtendedLifetime(config) {}
    }

    @Test("a file changed on disk and a purge are rendered again, never answered with the remembered headers")
    func changesAndPurges() async throws {
        let fixture = try ServerFixture()
        let (server, config) = try await start(fixture)
        let port = server.port
        for _ in 0..<3 { _ = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port) }
        let before = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port)
        #expect(before.header("x-darkroom-cache") == "memory")

        let path = fixture.root.path("gradient.jpg")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: Fixtures.path("icc-adobe-rgb.jpg"), toPath: path)
        let changed = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port)
        #expect(changed.header("x-darkroom-cache") == "rendered" && changed.header("etag") != before.header("etag"))
        #expect(changed.body != before.body)
        for _ in 0..<2 {
            let hit = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port)
            #expect(hit.header("x-darkroom-cache") == "memory" && hit.header("etag") == changed.header("etag"))
            #expect(hit.body == changed.body)
        }

        let purge = try await RawHTTPClient.send(
            "POST", "/admin/purge?source=gradient.jpg", port: port, headers: ["Authorization": "Bearer \(Self.token)"])
        #expect(purge.status == 200, "\(purge.text)")
        let afterPurge = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: port)
        #expect(afterPurge.header("x-darkroom-cache") != "memory" && afterPurge.body == changed.body)
        #expect(try await server.stop() == 0)
        withExtendedLifetime(config) {}
    }
}
