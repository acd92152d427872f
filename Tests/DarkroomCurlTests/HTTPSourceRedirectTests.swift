import DarkroomCore
import DarkroomCurl
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Redirects and hosts

@Suite("HTTPSource follows redirects within bounds, checking every hop's scheme and host")
struct HTTPSourceRedirectTests {
    let server: LoopbackHTTPServer

    init() async throws {
        server = try await LoopbackHTTPServer.launch()
    }

    @Test("a chain of redirects is followed; the key stays the requested URL")
    func followed() async throws {
        let source = HTTPSource(settings: .loopback)
        let data = try await source.load(server.url("/redirect-chain/3/gradient.jpg"))
        #expect(data.bytes == Fixtures.bytes("gradient.jpg"))
        #expect(data.key == server.url("/redirect-chain/3/gradient.jpg"))
        #expect(server.hits("/image/gradient.jpg") == 1)
        let to = server.url("/image/gradient-rgb.png")
        let via = try await source.load(server.url("/redirect?code=307&to=\(to)"))
        #expect(via.contentType == "image/png")
    }

    @Test("more redirects than the limit are refused")
    func tooMany() async {
        var settings = HTTPSourceSettings.loopback
        settings.maxRedirects = 2
        let failure = await expectFetchFailure {
            _ = try await HTTPSource(settings: settings).load(server.url("/redirect-chain/3/gradient.jpg"))
        }
        #expect(failure.reason == "too many redirects (more than 2)")
        #expect(failure.kind == .invalidResponse)
        #expect(server.hits("/image/gradient.jpg") == 0)
    }

    @Test("a redirect to file:// is refused")
    func fileScheme() async {
        let failure = await expectFetchFailure {
            _ = try await HTTPSource(settings: .loopback).load(server.url("/redirect?to=file:///etc/passwd"))
        }
        #expect(failure.reason == "redirect to file:///etc/passwd refused: only http and https are allowed")
        #expect(failure.kind == .refused)
    }

    @Test("allowed-hosts is checked on the URL and on every redirect")
    func allowedHosts() async throws {
        var settings = HTTPSourceSettings.loopback
        settings.allowedHosts = ["127.0.0.1"]
        let source = HTTPSource(settings: settings)
        _ = try await source.load(server.url("/image/gradient.jpg"))
        let direct = await expectFetchFailure { _ = try await source.load(server.localhostURL("/image/gradient.jpg")) }
        #expect(direct.reason == "host localhost is not in allowed-hosts (127.0.0.1) of [sources.http]")
        #expect(direct.kind == .refused)
        let target = server.localhostURL("/image/gradient-rgb.png")
        let redirected = await expectFetchFailure { _ = try await source.load(server.url("/redirect?to=\(target)")) }
        #expect(redirected.reason == "redirect to \(target) refused: host localhost is not in allowed-hosts (127.0.0.1) of [sources.http]")
        #expect(server.hits("/image/gradient-rgb.png") == 0)
        // Wildcards match subdomains only.
        settings.allowedHosts = ["*.example.com"]
        #expect(settings.allows(host: "img.EXAMPLE.com"))
        #expect(!settings.allows(host: "example.com"))
        #expect(!settings.allows(host: "badexample.com"))
    }
}
