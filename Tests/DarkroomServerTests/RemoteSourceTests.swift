import Darkroom
import DarkroomConfig
import DarkroomServer
import DarkroomTestSupport
import Testing

// MARK: - Remote sources

@Suite("The image server fetches http sources once for all the requests that need them")
struct RemoteSourceTests {
    @Test("A percent-encoded URL is fetched, rendered and then served from memory")
    func remoteVariant() async throws {
        let upstream = try await LoopbackHTTPServer.launch()
        let server = try ServerFixture().server()
        let path = "/thumb/" + PercentEncoding.encode(upstream.url("/image/gradient.jpg"), keepingSlashes: false)
        let first = await server.get(path)
        #expect(first.status == 200, "\(first.text)")
        let image = try Registry.standard.decode(first.body)
        #expect(image.width == 32 && image.height == 24)
        let second = await server.get(path)
        #expect(second.header("X-Darkroom-Cache") == "memory")
        #expect(upstream.hits("/image/gradient.jpg") == 1)
    }

    @Test("Concurrent requests for one URL share one download")
    func concurrentRequestsShareWork() async throws {
        let upstream = try await LoopbackHTTPServer.launch()
        let server = try ServerFixture().server()
        let url = upstream.url("/image/gradient.jpg?delay=0.3")
        let statuses = await withTaskGroup(of: Int.self) { group in
            for variant in ["thumb", "thumb", "square", "square", "thumb"] {
                group.addTask { await server.get("/\(variant)/\(PercentEncoding.encode(url, keepingSlashes: false))").status }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == [200, 200, 200, 200, 200])
        #expect(upstream.hits("/image/gradient.jpg?delay=0.3") == 1)
    }

    @Test("Cancelling the task awaiting a response ends it with 499 and drops the download")
    func cancelledRequest() async throws {
        let upstream = try await LoopbackHTTPServer.launch()
        let server = try ServerFixture().server()
        let held = "/image/gradient.jpg?hold=cancelled"
        let path = "/thumb/" + PercentEncoding.encode(upstream.url(held), keepingSlashes: false)
        let request = Task { await server.get(path) }
        #expect(await upstream.wait(timeout: 120) { upstream.hits(held) == 1 })
        request.cancel()
        let response = await request.value
        #expect(response.status == 499, "\(response.text)")
        #expect(response.text.contains("client closed the connection"))
        // Well before the source's own low-speed timeout (300 s) would end the transfer.
        #expect(await upstream.wait(timeout: 30) { upstream.finished(held).first?.outcome == "aborted" })
    }

    @Test("An upstream 404 is 404; an upstream 500 is 502; a refused host is 403")
    func upstreamFailures() async throws {
        let upstream = try await LoopbackHTTPServer.launch()
        let server = try ServerFixture().server()
        let missing = await server.get("/thumb/" + PercentEncoding.encode(upstream.url("/status/404"), keepingSlashes: false))
        #expect(missing.status == 404, "\(missing.text)")
        #expect(missing.text.contains("404"))
        let broken = await server.get("/thumb/" + PercentEncoding.encode(upstream.url("/status/500"), keepingSlashes: false))
        #expect(broken.status == 502, "\(broken.text)")

        let fixture = try ServerFixture()
        let strict = try ImageServer(
            registry: .standard,
            configuration: DarkroomConfig.ConfigLoader.load(
                sources: [(name: "strict.toml", text: "[variants.thumb]\nfilters = []\nformat = \"png\"\n\n[sources.http]\nallowed-ports = []\n")],
                filters: Registry.standard.filters),
            caches: .none, settings: ImageServerSettings(root: fixture.root.url.path))
        let refused = await strict.get("/thumb/" + PercentEncoding.encode(upstream.url("/image/gradient.jpg"), keepingSlashes: false))
        #expect(refused.status == 403, "\(refused.text)")
        #expect(refused.text.contains("loopback"))
        #expect(upstream.hits("/image/gradient.jpg") == 0)
    }
}
