import DarkroomCore
import FoundationEssentials
import Logging
import Synchronization

// MARK: - HTTPSource

/// Loads images over HTTP and HTTPS with libcurl: many transfers at once on one event-loop
/// thread (libcurl's multi interface), kept-alive connections, HTTP/2 where offered (over
/// TLS, by ALPN), with transfers to one host started together sharing one HTTP/2 connection
/// as streams.
///
/// Every load is bounded and checked (`HTTPSourceSettings`): connect, total and low-speed
/// timeouts; a byte limit enforced as soon as a `Content-Length` announces too much or the
/// body grows past it; redirects followed by the source itself, each hop's scheme and host
/// checked; private, loopback and link-local addresses refused on the resolved address of
/// every connection; the `Content-Type` and the bytes' own signature must both say "image"
/// (a 2xx answer of another type is stopped as its body starts, not downloaded first).
/// Transient failures (connection errors, connect timeouts, 5xx, 429) are retried with
/// exponential backoff; `Retry-After` is honoured.
///
/// ```swift
/// var settings = HTTPSourceSettings()
/// settings.hosts["images.example.com"] = .init(credentials: .bearer(token: token))
/// let source = HTTPSource(settings: settings)
/// let data = try await source.load("https://images.example.com/cat.jpg")
/// // Later: ask whether it changed.
/// switch try await source.load(data.key, revalidating: data) {
/// case .notModified(let fresh): print("still current for \(fresh.maxAge ?? 0) s")
/// case .loaded(let new): print("changed: \(new.bytes.count) bytes")
/// }
/// ```
///
/// `Sendable` without a lock of its own: every stored property is immutable and `Sendable`
/// (the event loop guards its own state with a lock; the statistics are in a `Mutex`).
public final class HTTPSource: ImageSource {
    public let name = "http"
    /// The settings every load uses.
    public let settings: HTTPSourceSettings
    private let logger: Logger
    private let loop: CurlEventLoop
    private let counters = Mutex(Statistics())

    /// - Parameters:
    ///   - settings: timeouts, limits, hosts, credentials (defaults: `HTTPSourceSettings`).
    ///   - logger: receives one debug line per transfer (label `darkroom.http` by default).
    public init(settings: HTTPSourceSettings = HTTPSourceSettings(), logger: Logger = Logger(label: "darkroom.http")) {
        self.settings = settings
        self.logger = logger
        self.loop = CurlEventLoop()
    }

    deinit {
        loop.shutdown()
    }

    // MARK: - ImageSource

    /// `http://` and `https://` locations (scheme in any case).
    public func canLoad(_ location: String) -> Bool {
        HTTPURL.hasHTTPScheme(location)
    }

    /// The normalised URL: scheme and host lower-case, no default port, no fragment, and
    /// credentials written in the URL replaced by their SHA-256 (caches persist keys).
    /// - Throws: `DarkroomError/fetchFailed(url:status:reason:kind:)` for a malformed or non-http(s) URL.
    public func key(for location: String) throws -> String {
        try HTTPURL(location).key
    }

    public func load(_ location: String) async throws -> SourceData {
        try await load(location, revalidating: nil).data
    }

    /// Loads `location`; with `cached`, sends `If-None-Match` / `If-Modified-Since` and
    /// returns `SourceLoadOutcome/notModified(_:)` (freshness updated) on `304`.
    public func load(_ location: String, revalidating cached: SourceData?) async throws -> SourceLoadOutcome {
        let start = try HTTPURL(location)
        try checkAllowed(start, url: location, redirect: false)
        var current = start
        var redirects = 0
        while true {
            let response = try await exchange(current, location: location, revalidating: cached)
            if response.status == 304, let cached {
                return .notModified(refreshed(cached, from: response.head))
            }
            guard (300..<400).contains(response.status) else {
                return .loaded(try data(from: response, key: start.key, location: location))
            }
            guard let target = response.redirectURL, !target.isEmpty else {
                throw DarkroomError.fetchFailed(
                    url: location, status: response.status,
                    reason: "HTTP \(response.head.statusDescription) without a Location to follow",
                    kind: .invalidResponse)
            }
            redirects += 1
            guard redirects <= settings.maxRedirects else {
                throw DarkroomError.fetchFailed(
                    url: location, status: response.status,
                    reason: "too many redirects (more than \(settings.maxRedirects))",
                    kind: .invalidResponse)
            }
            current = try redirectTarget(target, location: location)
        }
    }

    // MARK: - Statistics

    /// What this source has done so far (for logs, metrics and tests).
    public struct Statistics: Sendable, Hashable {
        /// Transfers finished (each attempt and each redirect hop counts).
        public var transfers = 0
        /// Transfers that reused a kept-alive connection.
        public var reusedConnections = 0
        /// Retries made.
        public var retries = 0
    }

    /// A snapshot of what this source has done so far (see ``HTTPSource/Statistics``).
    public var statistics: Statistics { counters.withLock { $0 } }

    /// The event loop, for tests that watch its thread.
    var eventLoopForTesting: CurlEventLoop { loop }

    // MARK: - One hop, with retries

    private func exchange(_ url: HTTPURL, location: String, revalidating cached: SourceData?) async throws -> CurlResponse {
        var attempt = 0
        while true {
            if Task.isCancelled { throw DarkroomError.cancelled }
            let began = ContinuousClock.now
            let response = try await loop.perform(CurlTransfer(request(for: url, revalidating: cached)))
            record(response, url: url, began: began)
            switch TransferOutcome.classify(response, url: location, settings: settings) {
            case let .response(response):
                return response
            case let .failure(error):
                throw error
            case let .retry(error, retryAfter):
                let policy = settings.retry
                guard attempt < policy.maxRetries else { throw error }
                if let retryAfter, retryAfter > policy.maxRetryAfter { throw error }
                let delay = RetryAfter.delay(attempt: attempt, retryAfter: retryAfter, policy: policy)
                logger.debug("retrying", metadata: [
                    "url": "\(url.key)", "reason": "\(error)", "delay": "\(delay)", "attempt": "\(attempt + 1)",
                ])
                counters.withLock { $0.retries += 1 }
                do {
                    try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
                } catch {
                    throw DarkroomError.cancelled
                }
                attempt += 1
            }
        }
    }

    private func record(_ response: CurlResponse, url: HTTPURL, began: ContinuousClock.Instant) {
        counters.withLock { statistics in
            statistics.transfers += 1
            if response.reusedConnection { statistics.reusedConnections += 1 }
        }
        let elapsed = ContinuousClock.now - began
        logger.debug("GET", metadata: [
            "url": "\(url.key)", "status": "\(response.status)", "curl": "\(response.code)",
            "bytes": "\(response.body.count)", "ip": "\(response.primaryIP)",
            "reused": "\(response.reusedConnection)", "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
        ])
    }

    // MARK: - Requests

    private func request(for url: HTTPURL, revalidating cached: SourceData?) -> CurlRequest {
        var headers: [String] = ["Accept: image/avif,image/webp,image/apng,image/*,*/*;q=0.8"]
        for (name, value) in settings.headers.sorted(by: { $0.key < $1.key }) {
            headers.append(Self.headerLine(name, value))
        }
        var basic: (String, String)?
        var signature: CurlRequest.AWSSignature?
        if let host = settings.settings(forHost: url.host) {
            for (name, value) in host.headers.sorted(by: { $0.key < $1.key }) {
                headers.append(Self.headerLine(name, value))
            }
            switch host.credentials {
            case let .basic(user, password): basic = (user, password)
            case let .bearer(token): headers.append(Self.headerLine("Authorization", "Bearer \(token)"))
            case let .awsSignatureV4(accessKey, secretKey, sessionToken, region, service):
                signature = .init(provider: "aws:amz:\(region):\(service)", accessKey: accessKey, secretKey: secretKey)
                // libcurl 7.88 does not add the payload hash S3 requires: a GET's body is empty.
                headers.append(Self.headerLine("x-amz-content-sha256", Self.emptyBodySHA256))
                if let sessionToken { headers.append(Self.headerLine("x-amz-security-token", sessionToken)) }
            case nil: break
            }
        }
        if let etag = cached?.etag { headers.append(Self.headerLine("If-None-Match", etag)) }
        if let lastModified = cached?.lastModified { headers.append(Self.headerLine("If-Modified-Since", lastModified)) }
        return CurlRequest(
            url: url.normalized, headerLines: headers, basicCredentials: basic, awsSignature: signature, settings: settings)
    }

    /// The SHA-256 of an empty body, in hex.
    static let emptyBodySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// `Name: value` with line breaks removed (a header cannot smuggle another).
    private static func headerLine(_ name: String, _ value: String) -> String {
        let clean: (String) -> String = { $0.filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" } }
        return "\(clean(name)): \(clean(value))"
    }

    // MARK: - Checks

    private func checkAllowed(_ url: HTTPURL, url location: String, redirect: Bool) throws {
        if let ports = settings.effectiveAllowedPorts, !ports.contains(url.port) {
            let what = redirect ? "redirect to \(url.normalized) refused: port" : "port"
            let why = settings.allowedPorts == nil
                ? "80 and 443 while allowed-hosts is unset; set allowed-ports" : ports.map(String.init).joined(separator: ", ")
            throw DarkroomError.fetchFailed(
                url: location, status: nil, reason: "\(what) \(url.port) is not in allowed-ports (\(why)) of [sources.http]",
                kind: .refused)
        }
        guard settings.allows(host: url.host) else {
            let allowed = settings.allowedHosts.joined(separator: ", ")
            let what = redirect ? "redirect to \(url.normalized) refused: host" : "host"
            throw DarkroomError.fetchFailed(
                url: location, status: nil,
                reason: "\(what) \(url.host) is not in allowed-hosts (\(allowed)) of [sources.http]",
                kind: .refused)
        }
    }

    private func redirectTarget(_ target: String, location: String) throws -> HTTPURL {
        guard HTTPURL.hasHTTPScheme(target) else {
            throw DarkroomError.fetchFailed(
                url: location, status: nil, reason: "redirect to \(target) refused: only http and https are allowed",
                kind: .refused)
        }
        let url: HTTPURL
        do {
            url = try HTTPURL(target)
        } catch {
            throw DarkroomError.fetchFailed(url: location, status: nil, reason: "redirect to \(target) refused: \(error)", kind: .invalidResponse)
        }
        try checkAllowed(url, url: location, redirect: true)
        return url
    }

    /// The loaded data, after checking the content type and the bytes' signature.
    private func data(from response: CurlResponse, key: String, location: String) throws -> SourceData {
        let contentType = response.head["content-type"]
        if !settings.accepts(contentType: contentType), let contentType {
            throw DarkroomError.fetchFailed(
                url: location, status: response.status, reason: "content type \(contentType) is not an image type",
                kind: .invalidResponse)
        }
        do {
            _ = try ImageFormat.detect(response.body)
        } catch DarkroomError.emptyInput {
            throw DarkroomError.fetchFailed(url: location, status: response.status, reason: "the response body is empty", kind: .invalidResponse)
        } catch let DarkroomError.unrecognizedFormat(hint) {
            let served = contentType.map { " (served as \($0))" } ?? ""
            throw DarkroomError.fetchFailed(
                url: location, status: response.status, reason: "the response is not an image\(served): \(hint)",
                kind: .invalidResponse)
        }
        let freshness = HTTPFreshness(response.head)
        return SourceData(
            key: key, bytes: response.body, contentType: contentType, etag: response.head["etag"],
            lastModified: response.head["last-modified"], maxAge: freshness.maxAge, noStore: freshness.noStore)
    }

    /// The cached copy with the freshness (and validators, when sent) of a 304 answer.
    private func refreshed(_ cached: SourceData, from head: HTTPResponseHead) -> SourceData {
        var fresh = cached
        let freshness = HTTPFreshness(head)
        fresh.maxAge = freshness.maxAge
        fresh.noStore = freshness.noStore
        if let etag = head["etag"] { fresh.etag = etag }
        if let lastModified = head["last-modified"] { fresh.lastModified = lastModified }
        return fresh
    }
}
