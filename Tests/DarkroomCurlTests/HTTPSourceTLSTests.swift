import DarkroomCore
import DarkroomCurl
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - HTTPS

@Suite("HTTPSource fetches over TLS, checking the server's certificate")
struct HTTPSourceTLSTests {
    let server: LoopbackHTTPServer

    init() async throws {
        server = try await LoopbackHTTPServer.launch(tls: true)
    }

    let trusting = HTTPSourceSettings.loopbackTLS

    @Test("an https URL loads when the certificate chains to the ca-file, by address and by name")
    func trustedCertificate() async throws {
        let source = HTTPSource(settings: trusting)
        for url in [server.url("/image/gradient.jpg"), server.localhostURL("/image/gradient-rgb.png?x=1")] {
            #expect(url.hasPrefix("https://"))
            let data = try await source.load(url)
            #expect(try ImageFormat.detect(data.bytes) == (url.contains(".jpg") ? .jpeg : .png))
        }
        let loaded = try await source.load(server.url("/image/gradient.jpg?again=1"))
        #expect(loaded.bytes == Fixtures.bytes("gradient.jpg"))
        #expect(server.finished("/image/gradient.jpg").first?.outcome == "completed")
    }

    @Test("a certificate the system's authorities did not sign is refused, saying TLS failed")
    func untrustedCertificate() async throws {
        let source = HTTPSource(settings: .loopback)
        let failure = await expectFetchFailure { _ = try await source.load(server.url("/image/gradient.jpg")) }
        #expect(failure.reason.hasPrefix("TLS failed: "), "\(failure.reason)")
        #expect(server.hits("/image/gradient.jpg") == 0, "no request is sent over an untrusted connection")
    }

    @Test("redirects and conditional requests work over TLS too")
    func redirectsAndRevalidation() async throws {
        let source = HTTPSource(settings: trusting)
        let target = server.url("/image/gradient.jpg?via=redirect")
        let redirected = try await source.load(server.url("/redirect?to=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"))
        #expect(redirected.bytes == Fixtures.bytes("gradient.jpg"))
        let outcome = try await source.load(server.url("/image/gradient.jpg?via=redirect"), revalidating: redirected)
        guard case .notModified = outcome else {
            Issue.record("expected 304 over TLS, got \(outcome)")
            return
        }
    }
}
