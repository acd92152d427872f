import DarkroomCore
@testable import DarkroomCurl
import CCurlShims
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Refusals

@Suite("HTTPSource refuses what is not an image, HTTP errors and private networks, with clear reasons")
struct HTTPSourceRefusalTests {
    let server: LoopbackHTTPServer
    let source = HTTPSource(settings: .loopback)

    init() async throws {
        server = try await LoopbackHTTPServer.launch()
    }

    @Test("a content type outside the list is refused, parameters are ignored, extra types are accepted")
    func contentType() async throws {
        let failure = await expectFetchFailure {
            _ = try await source.load(server.url("/image/gradient.jpg?type=text/html"))
        }
        #expect(failure.reason == "content type text/html is not an image type")
        #expect(failure.kind == .invalidResponse)
        #expect(failure.status == 200)
        // Parameters do not matter.
        let withCharset = try await source.load(server.url("/image/gradient.jpg?type=image/jpeg;%20q=1"))
        #expect(withCharset.bytes == Fixtures.bytes("gradient.jpg"))
        // A type added in the settings is accepted.
        var settings = HTTPSourceSettings.loopback
        settings.additionalContentTypes = ["image/x-darkroom"]
        let extended = HTTPSource(settings: settings)
        _ = try await extended.load(server.url("/image/gradient.jpg?type=image/x-darkroom"))
    }

    @Test("a body of the wrong content type is refused when it starts, not downloaded in full",
          arguments: ["/big", "/chunked-big"])
    func contentTypeRefusedBeforeTheBody(route: String) async throws {
        let path = "\(route)?bytes=40000000&type=video/mp4"
        let failure = await expectFetchFailure { _ = try await source.load(server.url(path)) }
        #expect(failure.reason == "content type video/mp4 is not an image type")
        #expect(failure.status == 200)
        // The server saw the connection close while it was still sending the 40 MB.
        #expect(await server.wait { server.finished(path).count == 1 })
        #expect(server.finished(path).first?.outcome == "aborted")
    }

    @Test("an HTML page served as image/jpeg is refused, naming what the bytes are")
    func htmlAsJPEG() async {
        let failure = await expectFetchFailure { _ = try await source.load(server.url("/html-as-jpeg")) }
        #expect(failure.reason.hasPrefix("the response is not an image (served as image/jpeg): the data is HTML"))
    }

    @Test("404 and 500 carry the status and the reason phrase")
    func statuses() async {
        let notFound = await expectFetchFailure { _ = try await source.load(server.url("/image/missing.jpg")) }
        #expect(notFound.reason == "HTTP 404 Not Found")
        #expect(notFound.kind == .httpStatus)
        #expect(notFound.status == 404)
        var settings = HTTPSourceSettings.loopback
        settings.retry.maxRetries = 0
        let serverError = await expectFetchFailure {
            _ = try await HTTPSource(settings: settings).load(server.url("/status/500"))
        }
        #expect(serverError.reason == "HTTP 500 Internal Server Error")
        #expect(serverError.status == 500)
        #expect(server.hits("/image/missing.jpg") == 1)
    }

    @Test("a 127.0.0.1 URL is refused by default, naming the address, before any request is sent")
    func privateNetworks() async {
        var anyPort = HTTPSourceSettings()
        anyPort.allowedPorts = []  // the loopback server's port: the address rule alone is tested
        let refusing = HTTPSource(settings: anyPort)
        let failure = await expectFetchFailure { _ = try await refusing.load(server.url("/image/gradient.jpg")) }
        #expect(failure.reason == "127.0.0.1 is a loopback address; private networks are refused "
            + "(set allow-private-networks = true in [sources.http])")
        #expect(failure.kind == .refused)
        #expect(server.hits("/image/gradient.jpg") == 0)
        // localhost resolves to a loopback address too: the resolved address is what counts.
        let byName = await expectFetchFailure { _ = try await refusing.load(server.localhostURL("/image/gradient.jpg")) }
        #expect(byName.reason.contains("is a loopback address"))
    }

    @Test("ports: 80 and 443 only while allowed-hosts is unset, the listed ones, or any with []; redirects too")
    func allowedPorts() async throws {
        var settings = HTTPSourceSettings.loopback
        settings.allowedPorts = nil
        let failure = await expectFetchFailure { _ = try await HTTPSource(settings: settings).load(server.url("/image/gradient.jpg?p=1")) }
        #expect(failure.reason == "port \(server.port) is not in allowed-ports (80 and 443 while allowed-hosts is unset; "
            + "set allowed-ports) of [sources.http]")
        #expect(failure.kind == .refused)
        #expect(server.hits("/image/gradient.jpg?p=1") == 0)
        settings.allowedPorts = [server.port]
        #expect(try await HTTPSource(settings: settings).load(server.url("/image/gradient.jpg?p=2")).bytes.count > 0)
        settings.allowedPorts = nil
        settings.allowedHosts = ["127.0.0.1"]  // hosts listed: any of their ports
        #expect(try await HTTPSource(settings: settings).load(server.url("/image/gradient.jpg?p=3")).bytes.count > 0)
        // A redirect to a port not listed is refused before it is followed.
        settings.allowedHosts = []
        settings.allowedPorts = [server.port]
        let target = "http://127.0.0.1:\(server.port + 1)/image/gradient.jpg"
        let redirect = await expectFetchFailure {
            _ = try await HTTPSource(settings: settings).load(server.url("/redirect?to=\(target)"))
        }
        #expect(redirect.reason.hasPrefix("redirect to \(target) refused: port \(server.port + 1) is not in allowed-ports (\(server.port))"),
                "\(redirect.reason)")
        #expect(HTTPSourceSettings().effectiveAllowedPorts == [80, 443])
    }

    @Test("a body over the limit is aborted early, with or without Content-Length")
    func maxBytes() async throws {
        var settings = HTTPSourceSettings.loopback
        settings.maxResponseBytes = 100_000
        let limited = HTTPSource(settings: settings)
        for path in ["/big?bytes=30000000", "/chunked-big?bytes=30000000"] {
            let failure = await expectFetchFailure { _ = try await limited.load(server.url(path)) }
            #expect(failure.reason == "response is larger than the limit of 100000 bytes")
            #expect(failure.kind == .tooLarge)
            #expect(await server.wait(timeout: 5) { server.finished(path).first?.outcome == "aborted" })
        }
        // Just under the limit is fine.
        let small = try await limited.load(server.url("/big?bytes=100000"))
        #expect(small.bytes.count == 100_000)
    }

    @Test("a dropped connection says how much arrived")
    func cut() async {
        var settings = HTTPSourceSettings.loopback
        settings.retry.maxRetries = 1
        let size = Fixtures.bytes("gradient.jpg").count
        let failure = await expectFetchFailure {
            _ = try await HTTPSource(settings: settings).load(server.url("/cut/gradient.jpg"))
        }
        #expect(failure.reason == "connection cut after \(size / 2) of \(size) bytes")
        #expect(failure.kind == .connection)
        #expect(server.hits("/cut/gradient.jpg") == 2)
    }

    /// Classified from libcurl's answer, not fetched: a real lookup would ask the machine's
    /// DNS resolver, and tests send traffic to loopback only.
    @Test("a host that does not resolve is named, and not retried")
    func unresolvable() {
        let response = CurlResponse(
            code: CURLE_COULDNT_RESOLVE_HOST.rawValue, errorText: "Could not resolve host: no-such-host.invalid", status: 0,
            head: HTTPResponseHead(parsing: ""), body: [], exceededLimit: false, refusedAddress: nil, redirectURL: nil,
            connected: false, reusedConnection: false, primaryIP: "", contentLength: -1)
        guard case let .failure(error) = TransferOutcome.classify(response, url: "http://127.0.0.1:9/a.jpg", settings: .loopback),
            case let DarkroomError.fetchFailed(url, _, reason, kind) = error
        else {
            Issue.record("expected a failure that is not retried")
            return
        }
        #expect(url == "http://127.0.0.1:9/a.jpg")
        #expect(reason.hasPrefix("cannot resolve host") && reason.contains("no-such-host.invalid"), "\(reason)")
        #expect(kind == .connection)
    }
}
