import DarkroomCore
import DarkroomCurl
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - HTTP/2

@Suite("HTTPSource speaks HTTP/2 where a server offers it, sharing one connection per host")
struct HTTPSourceHTTP2Tests {
    let server: LoopbackHTTPServer

    init() async throws {
        server = try await LoopbackHTTPServer.launchHTTP2()
    }

    let settings = HTTPSourceSettings.loopbackTLS

    @Test("an image is fetched over HTTP/2 (the server speaks nothing else)")
    func fetchesOverHTTP2() async throws {
        let source = HTTPSource(settings: settings)
        let loaded = try await source.load(server.url("/image/gradient.jpg"))
        #expect(loaded.bytes == Fixtures.bytes("gradient.jpg"))
        #expect(await server.wait { !server.finished("/image/gradient.jpg").isEmpty })
        let finished = try #require(server.finished("/image/gradient.jpg").first)
        #expect(finished.status == 200)
        #expect(finished.outcome == "completed")
        #expect(finished.stream != nil, "served by the HTTP/2 server")
    }

    @Test("transfers to one host started together share one connection as HTTP/2 streams")
    func concurrentTransfersMultiplex() async throws {
        let source = HTTPSource(settings: settings)
        let paths = (1...4).map { "/image/gradient.jpg?hold=together&n=\($0)" }
        try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for path in paths {
                group.addTask { try await source.load(server.url(path)).bytes }
            }
            // All four are in flight at once before any is answered.
            let arrived = await server.wait(timeout: 30) { paths.allSatisfy { server.hits($0) == 1 } }
            #expect(arrived)
            server.release("together")
            for try await bytes in group {
                #expect(bytes == Fixtures.bytes("gradient.jpg"))
            }
        }
        let requests = paths.flatMap { server.requests($0) }
        #expect(requests.count == 4)
        #expect(Set(requests.compactMap(\.connection)).count == 1, "one connection: \(requests.map(\.connection))")
        #expect(Set(requests.compactMap(\.stream)).count == 4)
    }

    @Test("a body larger than HTTP/2's initial flow-control window arrives whole")
    func flowControl() async throws {
        let source = HTTPSource(settings: settings)
        let loaded = try await source.load(server.url("/big?bytes=3000000"))
        #expect(loaded.bytes.count == 3_000_000)
        #expect(loaded.bytes.prefix(4) == [0xFF, 0xD8, 0xFF, 0xE0])
    }

    @Test("a body over the size limit is cut off mid-stream with the limit named")
    func sizeLimit() async throws {
        var limited = settings
        limited.maxResponseBytes = 100_000
        let source = HTTPSource(settings: limited)
        let failure = await expectFetchFailure { _ = try await source.load(server.url("/big?bytes=3000000")) }
        #expect(failure.reason == "response is larger than the limit of 100000 bytes")
    }

    @Test("an HTTP/2 error status (which carries no reason phrase) is reported with its standard one")
    func errorStatus() async throws {
        let source = HTTPSource(settings: settings)
        let failure = await expectFetchFailure { _ = try await source.load(server.url("/image/missing.jpg")) }
        #expect(failure.status == 404)
        #expect(failure.reason.contains("404 Not Found"), "\(failure.reason)")
    }

    @Test("cancelling a held HTTP/2 transfer ends it at once; the connection serves on and resets the stream")
    func cancellationResetsTheStream() async throws {
        let source = HTTPSource(settings: settings)
        let path = "/image/gradient.jpg?hold=cancelled"
        let task = Task { try await source.load(server.url(path)) }
        #expect(await server.wait(timeout: 30) { server.hits(path) == 1 })
        task.cancel()
        await #expect(throws: DarkroomError.cancelled) { try await task.value }
        // libcurl queues the stream's RST_STREAM and sends it with the connection's next
        // frames (here: the next request, on the same connection).
        let next = try await source.load(server.url("/image/gradient.jpg?after=cancel"))
        #expect(next.bytes == Fixtures.bytes("gradient.jpg"))
        #expect(await server.wait(timeout: 30) { server.finished(path).first?.outcome == "aborted" })
        let connections = Set((server.requests(path) + server.requests("/image/gradient.jpg?after=cancel")).compactMap(\.connection))
        #expect(connections.count == 1)
    }
}
