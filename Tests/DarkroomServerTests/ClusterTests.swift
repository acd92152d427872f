import Darkroom
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Servers sharing one memcached layer

@Suite("darkroom-server processes on one config share a memcached layer")
struct ClusterTests {
    @Test("a variant rendered through server 1 is answered by servers 2 and 3 from the shared layer, byte for byte")
    func sharedLayer() async throws {
        let memcached = try [LoopbackMemcached(), LoopbackMemcached()]
        let fixture = try ServerFixture()
        let config = try TemporaryDirectory(prefix: "darkroom-cluster-config")
        let servers = memcached.map { "\"\($0.address)\"" }.joined(separator: ", ")
        try (ServerFixture.configurationText + """

            [caches.memory]
            capacity = "10MB"

            [caches.shared]
            type = "memcached"
            servers = [\(servers)]
            timeout = "200ms"
            """).write(toFile: config.path("10-cluster.toml"), atomically: true, encoding: .utf8)
        var nodes: [ServerProcess] = []
        for _ in 0..<3 {
            nodes.append(try await ServerProcess.start(["--config", config.url.path, "--root", fixture.root.url.path, "--no-remote"]))
        }
        let first = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: nodes[0].port)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.header("x-darkroom-cache") == "rendered")
        for node in nodes.dropFirst() {
            let answer = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: node.port)
            #expect(answer.header("x-darkroom-cache") == "shared")
            #expect(answer.body == first.body)
            #expect(answer.header("etag") == first.header("etag"))
            let again = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: node.port)
            #expect(again.header("x-darkroom-cache") == "memory")
        }
        for node in nodes { _ = try await node.stop() }
    }
}
