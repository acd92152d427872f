import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCurl

// MARK: - Loading

@Suite("HTTPSource loads images with their metadata over one multi handle")
struct HTTPSourceLoadingTests {
    let server: LoopbackHTTPServer
    let source = HTTPSource(settings: .loopback)

    init() async throws {
        server = try await LoopbackHTTPServer.launch()
    }

    @Test("an image arrives with its bytes, content type, ETag, Last-Modified and normalised key")
    func loadsImage() async throws {
        let data = try await source.load(server.url("/image/gradient.jpg?max-age=600"))
        #expect(data.bytes == Fixtures.bytes("gradient.jpg"))
        #expect(data.contentType == "image/jpeg")
        #expect(data.etag?.hasPrefix("\"") == true)
        #expect(data.lastModified?.hasSuffix("GMT") == true)
        #expect(data.maxAge == 600)
        #expect(data.noStore == false)
        #expect(data.key == server.url("/image/gradient.jpg?max-age=600"))
        let request = try #require(server.requests("/image/gradient.jpg?max-age=600").first)
        #expect(request.headers["user-agent"] == "Darkroom")
        #expect(request.headers["accept"]?.contains("image/") == true)
    }

    @Test("keys: scheme and host lower-case, default port and fragment dropped; other schemes refused")
    func keys() throws {
        #expect(try source.key(for: "HTTP://LocalHost:80/a/b.jpg?x=1#frag") == "http://localhost/a/b.jpg?x=1")
        #expect(try source.key(for: "https://localhost:443/a.jpg") == "https://localhost/a.jpg")
        #expect(try source.key(for: "https://localhost:8443/a.jpg") == "https://localhost:8443/a.jpg")
        #expect(source.canLoad("HTTPS://localhost/a.jpg"))
        #expect(source.canLoad("http://localhost/a.jpg"))
        #expect(!source.canLoad("file:///etc/passwd"))
        #expect(!source.canLoad("photos/cat.jpg"))
        #expect(throws: DarkroomError.self) { try source.key(for: "ftp://localhost/a.jpg") }
        #expect(throws: DarkroomError.self) { try source.key(for: "http://") }
    }

    @Test("keys never hold the credentials of a URL (caches persist keys), yet tell credentials apart")
    func keysHideCredentials() throws {
        let key = try source.key(for: "http://alice:s3cret@LocalHost/a.jpg")
        #expect(!key.contains("s3cret") && !key.contains("alice"), "\(key)")
        #expect(key.hasPrefix("http://") && key.hasSuffix("@localhost/a.jpg"), "\(key)")
        #expect(try source.key(for: "http://alice:s3cret@localhost:80/a.jpg#x") == key)
        #expect(try source.key(for: "http://alice:other@localhost/a.jpg") != key)
        #expect(try source.key(for: "http://localhost/a.jpg") == "http://localhost/a.jpg")
    }

    @Test("no-store and no Cache-Control are carried into SourceData")
    func cacheControlFromServer() async throws {
        let noStore = try await source.load(server.url("/image/gradient-rgb.png?no-store=1"))
        #expect(noStore.noStore)
        #expect(noStore.maxAge == nil)
        let plain = try await source.load(server.url("/image/gradient-rgb.png?etag=0&last-modified=0"))
        #expect(plain.contentType == "image/png")
        #expect(plain.etag == nil && plain.lastModified == nil && plain.maxAge == nil && !plain.noStore)
    }

    @Test("a revalidating load answered 304 returns the cached copy with the new freshness")
    func revalidation() async throws {
        let path = "/image/gradient.jpg?max-age=60"
        let first = try await source.load(server.url(path))
        var cached = first
        cached.maxAge = 1
        let outcome = try await source.load(server.url(path), revalidating: cached)
        guard case let .notModified(fresh) = outcome else {
            Issue.record("expected notModified, got \(outcome)")
            return
        }
        #expect(fresh.bytes == first.bytes)
        #expect(fresh.maxAge == 60)
        let requests = server.requests(path)
        #expect(requests.count == 2)
        #expect(requests.last?.headers["if-none-match"] == first.etag)
        #expect(requests.last?.headers["if-modified-since"] == first.lastModified)
        // The server records a response once it is sent, which can be after the client has it.
        #expect(await server.wait(timeout: 5) { server.finished(path).count == 2 })
        #expect(server.finished(path).last?.status == 304)

        // Last-Modified alone revalidates too.
        let datePath = "/image/gradient.jpg?etag=0"
        let dated = try await source.load(server.url(datePath))
        #expect(dated.etag == nil)
        let again = try await source.load(server.url(datePath), revalidating: dated)
        #expect(again == .notModified(dated))

        // A changed validator gets the bytes again.
        var stale = first
        stale.etag = "\"other\""
        stale.lastModified = nil
        #expect(try await source.load(server.url(path), revalidating: stale) == .loaded(first))
    }

    @Test("20 concurrent loads of different URLs all succeed over one source, reusing connections")
    func concurrentLoads() async throws {
        let expected = Fixtures.bytes("gradient.jpg")
        let source = self.source
        let server = self.server
        try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for index in 0..<20 {
                group.addTask { try await source.load(server.url("/image/gradient.jpg?n=\(index)&delay=0.2")).bytes }
            }
            var count = 0
            for try await bytes in group {
                #expect(bytes == expected)
                count += 1
            }
            #expect(count == 20)
        }
        // A second wave finds kept-alive connections.
        for index in 0..<5 {
            _ = try await source.load(server.url("/image/gradient.jpg?again=\(index)"))
        }
        #expect(source.statistics.transfers == 25)
        #expect(source.statistics.reusedConnections >= 4)
    }

    @Test("the event-loop thread exits when the source goes away")
    func threadExits() async throws {
        // Off the cooperative pool: the 1 s below must not include other tests' use of it.
        try await offThePool { _ in
            var source: HTTPSource? = HTTPSource(settings: .loopback)
            _ = try await source?.load(server.url("/image/gradient.jpg"))
            let loop = try #require(source?.eventLoopForTesting)
            #expect(loop.isThreadRunning)
            // Gone well before the 2 s idle exit: the source's deinit stops the thread.
            source = nil
            #expect(await server.wait(timeout: 1) { !loop.isThreadRunning })
        }
    }
}
