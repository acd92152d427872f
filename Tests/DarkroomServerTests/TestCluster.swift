import DarkroomTestSupport
import Foundation

// MARK: - TestCluster

/// Three `darkroom-server` processes on one configuration whose caches are a memory layer and
/// a memcached layer over two real memcached processes, serving the fixture's root (and,
/// with `remote`, loopback http sources).
struct TestCluster {
    let memcached: [LoopbackMemcached]
    let fixture: ServerFixture
    let config: TemporaryDirectory
    var nodes: [ServerProcess]

    /// The admin token the nodes are started with (`$DARKROOM_ADMIN_TOKEN`).
    static let adminToken = "cluster-test-token-0123456789"

    static func start(servers: Int = 3, remote: Bool = false, metrics: Bool = false, extraConfig: String = "") async throws -> TestCluster {
        let memcached = try await LoopbackMemcached.launch(count: 2)
        let fixture = try ServerFixture()
        let config = try TemporaryDirectory(prefix: "darkroom-cluster-config")
        try (ServerFixture.configurationText
            + LoopbackMemcached.cacheTables(servers: memcached.map(\.address), timeout: "1s", extra: extraConfig)).write(toFile: config.path("10-cluster.toml"), atomically: true, encoding: .utf8)
        var arguments = ["--config", config.url.path, "--root", fixture.root.url.path]
        if !remote { arguments.append("--no-remote") }
        if metrics { arguments.append("--metrics") }
        var nodes: [ServerProcess] = []
        for _ in 0..<servers {
            nodes.append(try await ServerProcess.start(arguments, environment: ["DARKROOM_ADMIN_TOKEN": adminToken]))
        }
        return TestCluster(memcached: memcached, fixture: fixture, config: config, nodes: nodes)
    }

    /// Encodes done by every node so far (`darkroom_stage_duration_seconds_count{stage="encode"}`).
    func encodes() async throws -> Double {
        var total = 0.0
        for node in nodes {
            let text = try await RawHTTPClient.send("GET", "/metrics", port: node.port).text
            let line = text.split(separator: "\n").first {
                $0.hasPrefix("darkroom_stage_duration_seconds_count") && $0.contains("stage=\"encode\"")
            }
            total += line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        }
        return total
    }

    func stop() async throws {
        for node in nodes { _ = try await node.stop() }
    }
}
