import Darkroom
import DarkroomCore
import DarkroomServer
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Renders of URLs follow their origin's freshness

@Suite("renders of URLs follow the origin: stale ones are revalidated, 304 renews without a render, new bytes render again")
struct RenderFreshnessTests {
    /// An origin folder over loopback HTTP, and a server over it with a memory cache.
    struct Setup {
        let folder: TemporaryDirectory
        let origin: LoopbackHTTPServer
        let server: ImageServer
        let counters: StageCounters
        let fixture: ServerFixture

        static func start(staleIfError: Double = 0, maximumFreshness: Int? = nil) async throws -> Setup {
            let folder = try TemporaryDirectory(prefix: "darkroom-fresh-origin")
            let origin = try await LoopbackHTTPServer.launch(root: folder.url)
            let fixture = try ServerFixture()
            let counters = StageCounters()
            let settings = ImageServerSettings(root: nil, allowsRemoteSources: true)
            let server = try ImageServer(registry: .standard, configuration: fixture.configuration, caches: .none, settings: settings) {
                $0.caches = .memory()
                $0.counters = counters
                $0.staleIfError = staleIfError
                $0.maximumFreshness = maximumFreshness
            }
            return Setup(folder: folder, origin: origin, server: server, counters: counters, fixture: fixture)
        }

        func put(_ fixture: String, as name: String) throws {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture)))
            try bytes.write(to: URL(fileURLWithPath: folder.path(name)), options: .atomic)
        }

        /// `/thumb/` + the origin URL of `/image/NAME?QUERY`, percent-encoded.
        func path(_ originPath: String) -> String {
            "/thumb/" + origin.url(originPath).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        }

        func get(_ originPath: String) async -> ImageServerResponse {
            await server.get(path(originPath))
        }
    }

    /// Seconds of `Cache-Control: public, max-age=N`.
    static func maxAge(_ response: ImageServerResponse) -> Int? {
        response.header("Cache-Control").flatMap { $0.components(separatedBy: "max-age=").last.flatMap { Int($0) } }
    }

    @Test("a replaced origin image is served new once its max-age ran out, from the one conditional request's answer")
    func replacedAfterMaxAge() async throws {
        let setup = try await Setup.start()
        try setup.put("gradient.jpg", as: "a.jpg")
        let originPath = "/image/a.jpg?max-age=2"
        // The render is stored between `asked` and `stored`.
        let clock = ContinuousClock(), asked = clock.now
        let first = await setup.get(originPath)
        let stored = clock.now
        #expect(first.status == 200 && first.header("X-Darkroom-Cache") == "rendered", "\(first.text)")
        #expect((Self.maxAge(first) ?? 99) <= 2, "never more freshness than the origin gave: \(first.header("Cache-Control") ?? "")")
        try setup.put("icc-srgb.jpg", as: "a.jpg")
        let cached = await setup.get(originPath)
        // Within the max-age (unless the machine stalled past it): the kept render, no request.
        if clock.now - asked < .milliseconds(1500) {
            #expect(cached.body == first.body && cached.header("X-Darkroom-Cache") == "memory")
        }
        while clock.now - stored < .milliseconds(2100) { try await Task.sleep(for: .milliseconds(50)) }  // the max-age itself
        let fresh = await setup.get(originPath)
        #expect(fresh.status == 200 && fresh.body != first.body, "the replaced image after its max-age")
        #expect([cached, fresh].filter { $0.header("X-Darkroom-Cache") == "rendered" }.count == 1, "rendered again once")
        // One plain fetch; after it only conditional requests (two, if a stall let the new
        // render go stale too: then a 304), and the changed answer rendered, not fetched again.
        let requests = setup.origin.requests(originPath)
        #expect(requests.filter { $0.headers["if-none-match"] == nil }.count == 1, "\(requests.map(\.headers))")
        #expect((2...3).contains(requests.count))
        #expect(setup.counters.encodes == 2, "the first render and the replaced image's")
    }

    @Test("no-cache revalidates at every request; a 304 renews the render without rendering again")
    func noCacheRevalidatesEveryTime() async throws {
        let setup = try await Setup.start()
        try setup.put("gradient.jpg", as: "b.jpg")
        let originPath = "/image/b.jpg?no-cache=1"
        let first = await setup.get(originPath)
        #expect(first.status == 200, "\(first.text)")
        #expect(Self.maxAge(first) == 0)
        for round in 2...4 {
            let again = await setup.get(originPath)
            #expect(again.status == 200 && again.body == first.body)
            #expect(again.header("X-Darkroom-Cache") == "memory", "304: the kept render")
            #expect(setup.origin.hits(originPath) == round, "one conditional request each time")
        }
        #expect(setup.counters.encodes == 1, "a 304 does not render again")
        #expect(setup.origin.requests(originPath).dropFirst().allSatisfy { $0.headers["if-none-match"] != nil })
    }

    @Test("Expires and max-age cap the server's own Cache-Control; private and no-store are not kept")
    func headersFollowTheOrigin() async throws {
        let setup = try await Setup.start()
        try setup.put("gradient.jpg", as: "c.jpg")
        let expires = await setup.get("/image/c.jpg?expires=30")
        #expect((1...30).contains(Self.maxAge(expires) ?? 0), "\(expires.header("Cache-Control") ?? "")")
        let long = await setup.get("/image/c.jpg?max-age=600")
        #expect((1...600).contains(Self.maxAge(long) ?? 0), "\(long.header("Cache-Control") ?? "")")
        let silent = await setup.get("/image/c.jpg?quiet=1")
        #expect(Self.maxAge(silent) == 86_400, "an origin saying nothing: the server's own max-age")
        for query in ["private=1", "no-store=1"] {
            _ = await setup.get("/image/c.jpg?\(query)")
            let again = await setup.get("/image/c.jpg?\(query)")
            #expect(again.header("X-Darkroom-Cache") == "rendered", "\(query): not kept")
            #expect(setup.origin.hits("/image/c.jpg?\(query)") == 2)
        }
    }

    @Test("--max-freshness caps what an origin's max-age gives a render: its Cache-Control, and when it is revalidated")
    func freshnessCapped() async throws {
        let setup = try await Setup.start(maximumFreshness: 1)
        try setup.put("gradient.jpg", as: "e.jpg")
        let originPath = "/image/e.jpg?max-age=600"
        let first = await setup.get(originPath)
        #expect(first.status == 200 && (Self.maxAge(first) ?? 99) <= 1, "\(first.header("Cache-Control") ?? "")")
        try await Task.sleep(for: .milliseconds(1100))
        let again = await setup.get(originPath)
        #expect(again.status == 200 && again.body == first.body)
        #expect(setup.origin.requests(originPath).last?.headers["if-none-match"] != nil, "revalidated after the cap, not the origin's 600 s")
        #expect(setup.counters.encodes == 1)
    }

    @Test("an origin failing at revalidation: the stale render within stale-if-error, else the error")
    func staleIfError() async throws {
        for window in [60.0, 0] {
            let setup = try await Setup.start(staleIfError: window)
            try setup.put("gradient.jpg", as: "d.jpg")
            let originPath = "/image/d.jpg?max-age=1&fail-after=down"
            let first = await setup.get(originPath)
            #expect(first.status == 200, "\(first.text)")
            setup.origin.release("down")  // the origin answers 503 from now on
            try await Task.sleep(for: .milliseconds(1100))
            let stale = await setup.get(originPath)
            if window > 0 {
                #expect(stale.status == 200 && stale.body == first.body, "\(stale.text)")
                #expect(Self.maxAge(stale) == 0, "a stale render is never promised fresh")
            } else {
                #expect(stale.status == 502, "\(stale.text)")
            }
        }
    }
}
