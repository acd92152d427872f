import DarkroomCore
import DarkroomCurl
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Credentials and headers

@Suite("HTTPSource sends each host's credentials and headers, and the global headers")
struct HTTPSourceCredentialTests {
    let server: LoopbackHTTPServer

    init() async throws {
        server = try await LoopbackHTTPServer.launch()
    }

    @Test("Basic credentials for the host reach the server; without them the answer is 401")
    func basic() async throws {
        var settings = HTTPSourceSettings.loopback
        settings.hosts["127.0.0.1"] = .init(credentials: .basic(user: "ann", password: "s3cret"))
        let data = try await HTTPSource(settings: settings).load(server.url("/basic/ann/s3cret/gradient.jpg"))
        #expect(data.bytes == Fixtures.bytes("gradient.jpg"))
        let failure = await expectFetchFailure {
            _ = try await HTTPSource(settings: .loopback).load(server.url("/basic/ann/s3cret/gradient.jpg?anonymous=1"))
        }
        #expect(failure.reason == "HTTP 401 Unauthorized")
        #expect(failure.kind == .httpStatus)
        #expect(failure.status == 401)
    }

    @Test("a bearer token and host headers reach only their host")
    func bearerAndHeaders() async throws {
        var settings = HTTPSourceSettings.loopback
        settings.headers = ["X-Client": "darkroom"]
        settings.userAgent = "Darkroom/9.9"
        settings.hosts["127.0.0.1"] = .init(credentials: .bearer(token: "t0k3n"), headers: ["X-Api-Key": "k1"])
        let source = HTTPSource(settings: settings)
        _ = try await source.load(server.url("/bearer/t0k3n/gradient.jpg"))
        _ = try await source.load(server.url("/header/X-Api-Key/k1/gradient.jpg"))
        let request = try #require(server.requests("/bearer/t0k3n/gradient.jpg").first)
        #expect(request.headers["authorization"] == "Bearer t0k3n")
        #expect(request.headers["x-client"] == "darkroom")
        #expect(request.headers["x-api-key"] == "k1")
        #expect(request.headers["user-agent"] == "Darkroom/9.9")
        // Another host name for the same server gets the global headers only.
        _ = await expectFetchFailure { _ = try await source.load(server.localhostURL("/bearer/t0k3n/gradient.jpg?other=1")) }
        let other = try #require(server.requests("/bearer/t0k3n/gradient.jpg?other=1").first)
        #expect(other.headers["authorization"] == nil)
        #expect(other.headers["x-api-key"] == nil)
        #expect(other.headers["x-client"] == "darkroom")
    }

    @Test("a host entry may be a wildcard or \"*\": the exact entry wins, then the longest wildcard, then \"*\"")
    func wildcardPrecedence() {
        var settings = HTTPSourceSettings()
        settings.hosts["*"] = .init(credentials: .bearer(token: "everyone"))
        settings.hosts["*.example.com"] = .init(credentials: .bearer(token: "example"))
        settings.hosts["*.cdn.example.com"] = .init(credentials: .bearer(token: "cdn"))
        settings.hosts["static.cdn.example.com"] = .init(credentials: .bearer(token: "static"))
        func token(_ host: String) -> String? {
            guard case let .bearer(token)? = settings.settings(forHost: host)?.credentials else { return nil }
            return token
        }
        #expect(token("static.cdn.example.com") == "static")
        #expect(token("EU.CDN.example.com") == "cdn")
        #expect(token("a.b.example.com") == "example")
        #expect(token("example.com") == "everyone", "*.example.com names subdomains only")
        #expect(token("badexample.com") == "everyone")
        #expect(token("other.org") == "everyone")
        settings.hosts["*"] = nil
        #expect(token("other.org") == nil)
    }

    @Test("credentials under \"*\" reach every host, as a downloader-wide credential does")
    func everyHost() async throws {
        var settings = HTTPSourceSettings.loopback
        settings.hosts["*"] = .init(credentials: .bearer(token: "all"))
        let source = HTTPSource(settings: settings)
        _ = try await source.load(server.url("/bearer/all/gradient.jpg"))
        _ = try await source.load(server.localhostURL("/bearer/all/gradient.jpg?other=1"))
        #expect(server.requests("/bearer/all/gradient.jpg").first?.headers["authorization"] == "Bearer all")
        #expect(server.requests("/bearer/all/gradient.jpg?other=1").first?.headers["authorization"] == "Bearer all")
    }
}
