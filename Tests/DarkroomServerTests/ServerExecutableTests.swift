import Darkroom
import DarkroomCore
import DarkroomServer
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - The darkroom-server executable

@Suite("darkroom-server serves over real HTTP on loopback and refuses bad set-ups")
struct ServerExecutableTests {
    @Test("It renders, caches, negotiates WebP and answers errors over HTTP, then stops on SIGTERM")
    func servesOverHTTP() async throws {
        let fixture = try ServerFixture()
        let config = try TemporaryDirectory(prefix: "darkroom-server-config")
        try ServerFixture.configurationText.write(toFile: config.path("10-server.toml"), atomically: true, encoding: .utf8)
        let server = try await ServerProcess.start(["--config", config.url.path, "--root", fixture.root.url.path, "--auto-webp", "--metrics"])
        #expect(server.banner.contains("variants from \(config.url.path) over the built-in defaults"), "\(server.banner)")
        #expect(server.banner.contains("files under"))

        let first = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: server.port)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.header("content-type") == "image/jpeg")
        let image = try Registry.standard.decode(first.body)
        #expect(image.width == 32 && image.height == 24)
        let second = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: server.port)
        #expect(second.header("x-darkroom-cache") == "memory")

        let webp = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: server.port, headers: ["Accept": "image/webp,*/*"])
        #expect(webp.header("content-type") == "image/webp")
        #expect(webp.header("vary") == "Accept")
        #expect(server.banner.contains("WebP to clients that accept it"))

        let tag = try #require(first.header("etag"))
        let notModified = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: server.port, headers: ["If-None-Match": tag])
        #expect(notModified.status == 304)
        let head = try await RawHTTPClient.send("HEAD", "/square/alpha.png", port: server.port)
        #expect(head.status == 200)
        #expect(Int(head.header("content-length") ?? "") ?? 0 > 0)

        let unknown = try await RawHTTPClient.send("GET", "/thumbs/gradient.jpg", port: server.port)
        #expect(unknown.status == 404)
        #expect(unknown.text.contains("did you mean 'thumb'?"))
        let health = try await RawHTTPClient.send("GET", "/health", port: server.port)
        #expect(health.text == "ok\n")
        let metrics = try await RawHTTPClient.send("GET", "/metrics", port: server.port)
        #expect(metrics.text.contains(#"darkroom_http_responses_total{status="404"} 1"#), "\(metrics.text)")

        #expect(try await server.stop() == 0)
    }

    @Test("With $DARKROOM_KEY and $DARKROOM_SALT it serves signed paths only")
    func signing() async throws {
        let fixture = try ServerFixture()
        let config = try TemporaryDirectory(prefix: "darkroom-server-config")
        try ServerFixture.configurationText.write(toFile: config.path("10-server.toml"), atomically: true, encoding: .utf8)
        let server = try await ServerProcess.start(
            ["--config", config.url.path, "--root", fixture.root.url.path, "--no-cache", "--no-remote", "--auto-avif"],
            environment: ["DARKROOM_KEY": "00112233", "DARKROOM_SALT": ""])
        #expect(server.banner.contains("signed paths only"))
        #expect(server.banner.contains("AVIF to clients that accept it"), "\(server.banner)")
        #expect(server.banner.contains("remote sources off"))
        // Signature of "/thumb/gradient.jpg" with key 00112233 and no salt (Python's hmac).
        let signed = try await RawHTTPClient.send(
            "GET", "/GNg25cKGIoQKd4kOHnYmuoT0hbQZrUJEZlZkWIU00tA/thumb/gradient.jpg", port: server.port)
        #expect(signed.status == 200, "\(signed.text)")
        #expect(signed.header("content-type") == "image/jpeg")
        let avif = try await RawHTTPClient.send(
            "GET", "/GNg25cKGIoQKd4kOHnYmuoT0hbQZrUJEZlZkWIU00tA/thumb/gradient.jpg", port: server.port,
            headers: ["Accept": "image/avif,image/webp,*/*"])
        #expect(avif.header("content-type") == "image/avif")
        #expect(try ImageFormat.detect(avif.body) == .avif)
        let unsigned = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: server.port)
        #expect(unsigned.status == 403)
        _ = try await server.stop()
    }

    @Test("Idle and trickling connections are closed after --idle-timeout; a slow render is not cut")
    func idleTimeout() async throws {
        let fixture = try ServerFixture()
        let upstream = try await LoopbackHTTPServer.launch()
        let config = try TemporaryDirectory(prefix: "darkroom-server-config")
        try ServerFixture.configurationText.write(toFile: config.path("10-server.toml"), atomically: true, encoding: .utf8)
        let server = try await ServerProcess.start(
            ["--config", config.url.path, "--root", fixture.root.url.path, "--no-cache", "--idle-timeout", "1"])
        let idle = try #require(try await RawHTTPClient.secondsUntilClosed(port: server.port))
        #expect(idle >= 0.5 && idle < 5, "closed after \(idle) s")
        let trickling = try #require(try await RawHTTPClient.secondsUntilClosed(port: server.port, sending: "GET /thumb/gra"))
        #expect(trickling < 5, "closed after \(trickling) s")
        // A request whose body trickles in (a byte every quarter second) is answered, then
        // closed within the idle timeout too: each byte used to restart it.
        let head = "GET /thumb/gradient.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n"
        let tricklingBody = try await RawHTTPClient.secondsUntilClosed(port: server.port, sending: head, tricklingBodyFor: 8)
        #expect(tricklingBody.map { $0 < 5 } == true, "closed after \(String(describing: tricklingBody)) s")

        let slow = PercentEncoding.encode(upstream.url("/image/gradient.jpg?delay=2"), keepingSlashes: false)
        let response = try await RawHTTPClient.send("GET", "/thumb/\(slow)", port: server.port)
        #expect(response.status == 200, "\(response.text)")
        _ = try await server.stop()
    }

    @Test("A client that hangs up cancels its render: the source transfer is dropped at once and counted as 499")
    func clientHangUpCancels() async throws {
        let fixture = try ServerFixture()
        let upstream = try await LoopbackHTTPServer.launch()
        let config = try TemporaryDirectory(prefix: "darkroom-server-config")
        try ServerFixture.configurationText.write(toFile: config.path("10-server.toml"), atomically: true, encoding: .utf8)
        let server = try await ServerProcess.start(
            ["--config", config.url.path, "--root", fixture.root.url.path, "--no-cache", "--jobs", "1", "--metrics"])
        // The upstream holds its answer until released, which this test never does.
        let held = "/image/gradient.jpg?hold=never"
        let socket = try await RawHTTPClient.startRequest(
            "/thumb/" + PercentEncoding.encode(upstream.url(held), keepingSlashes: false), port: server.port)
        #expect(await upstream.wait(timeout: 120) { upstream.hits(held) == 1 })
        close(socket)
        // Well before the source's own low-speed timeout (300 s) would end the transfer.
        #expect(await upstream.wait(timeout: 30) { upstream.finished(held).first?.outcome == "aborted" }, "\(upstream.events())")

        let next = try await RawHTTPClient.send("GET", "/square/alpha.png", port: server.port)
        #expect(next.status == 200, "\(next.text)")
        let metrics = try await RawHTTPClient.send("GET", "/metrics", port: server.port)
        #expect(metrics.text.contains(#"darkroom_http_responses_total{status="499"} 1"#), "\(metrics.text)")
        #expect(try await server.stop() == 0)
    }

    @Test("A configuration with errors, bad options or a salt without a key stop it before it listens")
    func refusesBadSetups() async throws {
        let fixture = try ServerFixture()
        let broken = try TemporaryDirectory(prefix: "darkroom-server-broken")
        try "[variants.thumb]\nfilters = [ { filter = \"no-such-filter\" } ]\n"
            .write(toFile: broken.path("10-bad.toml"), atomically: true, encoding: .utf8)
        let root = fixture.root.url.path
        let cases: [(arguments: [String], environment: [String: String], status: Int32, message: String)] = [
            (["--config", broken.url.path, "--root", root], [:], 1, "10-bad.toml:2"),
            (["--no-remote"], [:], 64, "nothing to serve"),
            (["--root", root, "--max-age", "-5"], [:], 64, "--max-age -5 is negative"),
            (["--root", root, "--jobs", "-2"], [:], 64, "--jobs -2 is out of range"),
            (["--root", root + "/gradient.jpg"], [:], 1, "is not a folder"),
            (["--root", root], ["DARKROOM_SALT": "00"], 1, "DARKROOM_KEY"),
            (["--root", root], ["DARKROOM_KEY": "zz"], 1, "signing key"),
            (["--root", root, "--fallback", root + "/notes.jpg"], [:], 1, "--fallback"),
            (["--root", root, "--log-level", "loud"], [:], 64, "--log-level"),
            (["--root", root, "--idle-timeout", "-1"], [:], 64, "--idle-timeout"),
            (["--root", root, "--idle-timeout", "1e10"], [:], 64, "--idle-timeout 10000000000.0 is out of range"),
            (["--root", root, "--idle-timeout", "1e-9"], [:], 64, "expected 0 (never) or 0.001…604800 seconds"),
            (["--root", root, "--jobs", "100000"], [:], 64, "--jobs 100000 is out of range: expected 1…256"),
            (["--root", ""], [:], 64, "--root is empty"),
            (["--root", root, "--memory", "lots"], [:], 64, "--memory lots is not a size"),
            (["--root", root, "--max-pixels", "0"], [:], 64, "--max-pixels 0 is out of range"),
            (["--root", root, "--queue-timeout", "2d"], [:], 64, "--queue-timeout 2d is not a duration"),
            (["--root", root], ["DARKROOM_MEMORY": "0MB"], 64, "--memory 0MB is not a size"),
            (["--root", root, "--fallback", Fixtures.path("truncated.jpg")], [:], 1, "truncated.jpg: truncated JPEG data"),
            // A numeric address no interface has: bind fails locally, with no DNS lookup and no packet sent.
            (["--root", root, "--host", "::2"], [:], 1, "cannot listen on ::2 port 0"),
        ]
        for item in cases {
            let outcome = try await ServerProcessOutcome.run(item.arguments, environment: item.environment)
            #expect(outcome.status == item.status, "\(item.arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(item.message), "\(item.arguments): \(outcome.stderr)")
        }
    }
}

// MARK: - ServerProcessOutcome

/// A `darkroom-server` run expected to end on its own (a refused set-up).
struct ServerProcessOutcome {
    var status: Int32
    var stderr: String

    static func run(_ arguments: [String], environment: [String: String]) async throws -> ServerProcessOutcome {
        try await onOwnThread {
            let process = ServerProcess.makeProcess(arguments, environment: environment)
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
            // A server that starts anyway is stopped after 20 s rather than hanging the suite.
            let deadline = DispatchTime.now() + 20
            DispatchQueue.global().asyncAfter(deadline: deadline) { if process.isRunning { process.terminate() } }
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return ServerProcessOutcome(status: process.terminationStatus, stderr: stderr)
        }
    }
}
