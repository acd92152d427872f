import DarkroomCore
import DarkroomCurl
import DarkroomTestSupport
import Foundation

// MARK: - Settings for loopback tests

extension HTTPSourceSettings {
    /// The defaults, with the loopback server reachable, short retry delays, and long low-speed
    /// and whole-transfer times: a response the server holds sends nothing until released, which
    /// under a full parallel test run can outlast the default 10 s and 30 s (the timeout tests
    /// set their own).
    static var loopback: HTTPSourceSettings {
        var settings = HTTPSourceSettings()
        settings.allowPrivateNetworks = true
        settings.allowedPorts = []  // the loopback servers listen on free ports
        settings.retry.baseDelay = 0.05
        settings.lowSpeedTime = 600
        settings.totalTimeout = 600
        return settings
    }

    /// ``loopback``, trusting the loopback servers' TLS certificate.
    static var loopbackTLS: HTTPSourceSettings {
        var settings = loopback
        settings.caFile = LoopbackHTTPServer.tlsCertificate.path
        return settings
    }
}

/// The `fetchFailed` reason, status and kind of `error`, or `nil` for any other error.
func fetchFailure(_ error: any Error) -> (reason: String, status: Int?, kind: FetchFailureKind?)? {
    if case let DarkroomError.fetchFailed(_, status, reason, kind) = error { return (reason, status, kind) }
    return nil
}

/// Runs `body`, which must throw; returns the `fetchFailed` reason, status and kind.
func expectFetchFailure(_ body: () async throws -> Void) async -> (reason: String, status: Int?, kind: FetchFailureKind?) {
    do {
        try await body()
    } catch {
        return fetchFailure(error) ?? ("not a fetchFailed error: \(error)", nil, nil)
    }
    return ("no error thrown", nil, nil)
}
