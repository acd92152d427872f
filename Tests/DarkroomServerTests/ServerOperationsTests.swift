@testable import DarkroomServer
import DarkroomTestSupport
import Foundation
import Logging
import Synchronization
import Testing

// MARK: - Access log, JSON logs, process metrics

@Suite("darkroom-server logs every request at info (text or JSON), with a request id, and reports its process in /metrics")
struct ServerOperationsTests {
    /// The server's output lines, once `condition` holds for them (or after 60 s).
    static func lines(of server: ServerProcess, until condition: ([String]) -> Bool) async throws -> [String] {
        let clock = ContinuousClock(), start = clock.now
        while true {
            let lines = server.recentOutput.split(separator: "\n").map(String.init)
            if condition(lines) || clock.now - start > .seconds(60) { return lines }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    @Test("--log-format json: one JSON object per request with status, bytes, duration, cache layer and the client's request id")
    func jsonAccessLog() async throws {
        let fixture = try ServerFixture()
        let server = try await ServerProcess.start(["--root", fixture.root.url.path, "--no-remote", "--log-format", "json"])
        let image = try await RawHTTPClient.send("GET", "/thumbnail/gradient.jpg", port: server.port, headers: ["X-Request-ID": "trace-42.a:b_c"])
        #expect(image.status == 200)
        #expect(image.header("x-request-id") == "trace-42.a:b_c")
        let missing = try await RawHTTPClient.send("GET", "/thumbnail/none%0Aforged.jpg", port: server.port, headers: ["X-Request-ID": "bad id; &"])
        #expect(missing.status == 404)
        let generated = missing.header("x-request-id") ?? ""
        #expect(generated.count == 32 && generated.allSatisfy(\.isHexDigit), "\(generated)")

        let lines = try await Self.lines(of: server) { $0.filter { $0.contains("\"request_id\"") }.count >= 2 }
        let entries = lines.compactMap(Self.object).filter { $0["request_id"] != nil }
        #expect(entries.count == 2, "\(lines)")
        let served = try #require(entries.first { $0["request_id"] as? String == "trace-42.a:b_c" }, "\(lines)")
        #expect(served["level"] as? String == "info")
        #expect(served["message"] as? String == "GET /thumbnail/gradient.jpg 200")
        #expect(served["status"] as? Int == 200)
        #expect(served["bytes"] as? Int == image.body.count)
        #expect((served["duration_ms"] as? Double).map { $0 > 0 } == true, "\(served)")
        #expect(served["cache"] as? String == "rendered")
        let time = try #require(served["time"] as? String)
        #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "RFC 3339 with milliseconds: \(time)")
        let refused = try #require(entries.first { $0["request_id"] as? String == generated }, "\(lines)")
        #expect(refused["status"] as? Int == 404)
        // The path as requested: an encoded line break stays encoded, inside the one line.
        #expect(refused["path"] as? String == "/thumbnail/none%0Aforged.jpg", "\(refused)")
        #expect(lines.allSatisfy { Self.object($0) != nil }, "every line is JSON: \(lines)")
        _ = try await server.stop()
    }

    @Test("an admin request whose body is over the limit is answered 413 and logged like every other request")
    func oversizedAdminBodyLogged() async throws {
        let fixture = try ServerFixture()
        let server = try await ServerProcess.start(["--root", fixture.root.url.path, "--no-remote", "--log-format", "json"])
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 70 * 1024)
        let refused = try await RawHTTPClient.send(
            "POST", "/admin/purge", port: server.port, headers: ["X-Request-ID": "big-body"], body: body)
        #expect(refused.status == 413, "\(refused.text)")
        #expect(refused.header("x-request-id") == "big-body")
        let lines = try await Self.lines(of: server) { $0.contains { $0.contains("big-body") } }
        let entry = try #require(lines.compactMap(Self.object).first { $0["request_id"] as? String == "big-body" }, "\(lines)")
        #expect(entry["status"] as? Int == 413 && entry["path"] as? String == "/admin/purge", "\(entry)")
        _ = try await server.stop()
    }

    @Test("the default text format logs the request at info; --log-level notice leaves it out; a bad format is a usage error")
    func textAccessLog() async throws {
        let fixture = try ServerFixture()
        let server = try await ServerProcess.start(["--root", fixture.root.url.path, "--no-remote"], environment: ["DARKROOM_LOG_FORMAT": "text"])
        _ = try await RawHTTPClient.send("GET", "/thumbnail/gradient.jpg", port: server.port)
        let lines = try await Self.lines(of: server) { $0.contains { $0.contains("GET /thumbnail/gradient.jpg 200") } }
        let line = lines.first { $0.contains("GET /thumbnail/gradient.jpg 200") } ?? ""
        #expect(line.contains(" info ") && line.contains("status=200") && line.contains("cache=rendered") && line.contains("request_id="), "\(lines)")
        _ = try await server.stop()

        let quiet = try await ServerProcess.start(["--root", fixture.root.url.path, "--no-remote", "--log-level", "notice"])
        _ = try await RawHTTPClient.send("GET", "/thumbnail/gradient.jpg", port: quiet.port)
        _ = try await quiet.stop()
        #expect(!quiet.recentOutput.contains("GET /thumbnail"), "\(quiet.recentOutput)")

        let refused = try await ServerProcessOutcome.run(["--root", fixture.root.url.path], environment: ["DARKROOM_LOG_FORMAT": "yaml"])
        #expect(refused.status == 64 && refused.stderr.contains("--log-format yaml is not one of text, json"), "\(refused.stderr)")
    }

    @Test("/metrics reports the process: CPU seconds, resident memory, open and maximum descriptors, threads, start time")
    func processMetrics() async throws {
        let fixture = try ServerFixture()
        let server = try await ServerProcess.start(["--root", fixture.root.url.path, "--no-remote", "--metrics"])
        _ = try await RawHTTPClient.send("GET", "/thumbnail/gradient.jpg", port: server.port)
        let text = try await RawHTTPClient.send("GET", "/metrics", port: server.port).text
        func value(_ name: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }
        #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000, "\(text)")
        #expect((value("process_virtual_memory_bytes") ?? 0) >= (value("process_resident_memory_bytes") ?? .infinity))
        #expect((value("process_open_fds") ?? 0) >= 3)
        #expect((value("process_max_fds") ?? 0) >= (value("process_open_fds") ?? .infinity))
        #expect((value("process_cpu_seconds_total") ?? -1) >= 0)
        #expect((value("process_threads") ?? 0) >= 2)
        let started = value("process_start_time_seconds") ?? 0
        #expect(abs(started - Date().timeIntervalSince1970) < 600, "\(started)")
        #expect(text.contains("# TYPE process_cpu_seconds_total counter"))
        #expect(text.contains("darkroom_http_responses_total"), "the registry's own metrics are still there")
        _ = try await server.stop()
    }
}

// MARK: - Pieces

@Suite("JSON log lines and /proc/self/stat are written and read exactly")
struct LogAndProcessFormatTests {
    final class Written: Sendable {
        let lines = Mutex<[String]>([])
    }

    @Test("quotes, control characters and numbers; metadata at the top level, a reserved name prefixed")
    func jsonLine() throws {
        let written = Written()
        var logger = Logger(label: "test") { label in
            JSONLogHandler(label: label, level: .debug) { bytes in written.lines.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) } }
        }
        logger[metadataKey: "server"] = "a"
        logger.info("say \"hi\"\n\u{1}", metadata: ["count": .stringConvertible(3), "ratio": .stringConvertible(0.5), "level": "x", "tags": ["a", "b"]])
        logger.trace("not written")
        let lines = written.lines.withLock { $0 }
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasSuffix("}\n") && !line.dropLast().contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "say \"hi\"\n\u{1}")
        #expect(object["level"] as? String == "info")
        #expect(object["meta_level"] as? String == "x")
        #expect(object["logger"] as? String == "test")
        #expect(object["server"] as? String == "a")
        #expect(object["count"] as? Int == 3)
        #expect(object["ratio"] as? Double == 0.5)
        #expect(object["tags"] as? [String] == ["a", "b"])
    }

    @Test("a command name with spaces and parentheses does not shift the fields")
    func statFields() {
        let fields = ProcessMetrics.statFields("1234 (my (odd) name) S 1 2 3 4 5 6 7 8 9 10 11 12 13") ?? []
        #expect(fields.first == "S")
        #expect(fields.count == 14)
        #expect(ProcessMetrics.read() != nil)
    }
}

// MARK: - The systemd unit

@Suite("Docs/darkroom-server.service is a unit systemd accepts, whose variables the server reads")
struct SystemdUnitTests {
    static let unit = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/darkroom-server.service")

    /// `NAME=VALUE` of every `Environment=` line.
    static func environment(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("Environment=") {
            let pair = line.dropFirst("Environment=".count)
            guard let equals = pair.firstIndex(of: "=") else { continue }
            result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return result
    }

    @Test("systemd-analyze verify accepts it (ExecStart pointed at the built server)")
    func verifies() async throws {
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        #expect(text.contains("ExecStart=/usr/local/bin/darkroom-server\n"))
        let folder = try TemporaryDirectory(prefix: "darkroom-unit")
        let copy = folder.path("darkroom-server.service")
        try text.replacingOccurrences(of: "/usr/local/bin/darkroom-server", with: ServerProcess.executable.path)
            .write(toFile: copy, atomically: true, encoding: .utf8)
        let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let tool = try #require(analyze, "systemd-analyze is missing: apt-get install systemd (.ci/run does)")
        let (status, printed) = try await ChildProcess.run(tool, ["verify", copy])
        #expect(status == 0, "\(printed)")
        #expect(!printed.contains("darkroom-server.service"), "no complaint about the unit: \(printed)")
    }

    @Test("every variable it sets is one the server reads, and the server starts with them (JSON log, metrics)")
    func environmentIsRead() async throws {
        let variables = Self.environment(try String(contentsOf: Self.unit, encoding: .utf8))
        let known = Set((ServerEnvironment.options + ServerEnvironment.flags).map(\.variable))
            .union(["DARKROOM_CONFIG", "DARKROOM_CACHE_DIR", "DARKROOM_KEY", "DARKROOM_SALT", "DARKROOM_ADMIN_TOKEN"])
        #expect(variables.count >= 6)
        #expect(Set(variables.keys).isSubset(of: known), "\(Set(variables.keys).subtracting(known))")

        let fixture = try ServerFixture()
        let config = try TemporaryDirectory(prefix: "darkroom-unit-config")
        try ServerFixture.configurationText.write(toFile: config.path("10-server.toml"), atomically: true, encoding: .utf8)
        var environment = variables
        environment["DARKROOM_ROOT"] = fixture.root.url.path
        environment["DARKROOM_CONFIG"] = config.url.path
        environment["DARKROOM_CACHE_DIR"] = ServerProcess.cacheDirectory
        let server = try await ServerProcess.start([], environment: environment)
        #expect(try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: server.port).status == 200)
        #expect(try await RawHTTPClient.send("GET", "/metrics", port: server.port).status == 200)
        let lines = try await ServerOperationsTests.lines(of: server) { $0.contains { $0.contains("GET /thumb/gradient.jpg 200") } }
        #expect(lines.contains { $0.hasPrefix("{") && $0.contains("\"message\":\"GET /thumb/gradient.jpg 200\"") }, "\(lines)")
        _ = try await server.stop()
    }
}
