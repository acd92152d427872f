import DarkroomCore
import DarkroomCurl
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Retries

@Suite("HTTPSource retries 5xx, 429 and connection failures a bounded number of times, never other 4xx")
struct HTTPSourceRetryTests {
    let server: LoopbackHTTPServer

    init() async throws {
        server = try await LoopbackHTTPServer.launch()
    }

    @Test("a flaky path succeeds on the third attempt with two retries")
    func flakySucceeds() async throws {
        let source = HTTPSource(settings: .loopback)
        let data = try await source.load(server.url("/flaky/2/gradient.jpg"))
        #expect(data.bytes == Fixtures.bytes("gradient.jpg"))
        #expect(server.hits("/flaky/2/gradient.jpg") == 3)
        #expect(source.statistics.retries == 2)
    }

    @Test("retries are bounded: 1 + maxRetries attempts, then the last status")
    func bounded() async {
        var settings = HTTPSourceSettings.loopback
        settings.retry.maxRetries = 1
        let failure = await expectFetchFailure {
            _ = try await HTTPSource(settings: settings).load(server.url("/flaky/5/gradient.jpg"))
        }
        #expect(failure.reason == "HTTP 503 Service Unavailable")
        #expect(failure.kind == .httpStatus)
        #expect(failure.status == 503)
        #expect(server.hits("/flaky/5/gradient.jpg") == 2)
    }

    @Test("429 is retried, honouring Retry-After; a Retry-After past the cap is not waited for")
    func tooManyRequests() async {
        let started = ContinuousClock.now
        let failure = await expectFetchFailure {
            _ = try await HTTPSource(settings: .loopback).load(server.url("/status/429?retry-after=0.3"))
        }
        #expect(failure.reason == "HTTP 429 Too Many Requests")
        #expect(server.hits("/status/429?retry-after=0.3") == 3)
        #expect(ContinuousClock.now - started >= .milliseconds(600))

        var settings = HTTPSourceSettings.loopback
        settings.retry.maxRetryAfter = 1
        _ = await expectFetchFailure {
            _ = try await HTTPSource(settings: settings).load(server.url("/status/429?retry-after=3600"))
        }
        #expect(server.hits("/status/429?retry-after=3600") == 1)
    }

    @Test("404 and 401 are not retried")
    func clientErrorsNotRetried() async {
        let source = HTTPSource(settings: .loopback)
        _ = await expectFetchFailure { _ = try await source.load(server.url("/status/404")) }
        _ = await expectFetchFailure { _ = try await source.load(server.url("/status/401")) }
        #expect(server.hits("/status/404") == 1)
        #expect(server.hits("/status/401") == 1)
        #expect(source.statistics.retries == 0)
    }

    @Test("a refused connection is retried, then reported")
    func connectionRefused() async throws {
        // A port nobody listens on: bind one, note it, close it.
        let port = try freePort()
        let source = HTTPSource(settings: .loopback)
        let failure = await expectFetchFailure { _ = try await source.load("http://127.0.0.1:\(port)/a.jpg") }
        #expect(failure.reason.hasPrefix("cannot connect"))
        #expect(source.statistics.retries == 2)
    }

    private func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
