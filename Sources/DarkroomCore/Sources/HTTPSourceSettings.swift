// MARK: - HTTPSourceSettings

/// How the HTTP source fetches: timeouts, limits, which hosts and content types it accepts,
/// retries, and per-host credentials and headers. Plain data, read from `[sources.http]` by
/// DarkroomConfig and used by DarkroomCurl's `HTTPSource`.
///
/// The defaults are safe for a server fetching user-supplied URLs: 10 s to connect, 30 s in
/// all, at least 1 KB/s over any 10 s, 50 MB at most, 5 redirects, no private networks.
///
/// ```swift
/// var settings = HTTPSourceSettings()
/// settings.totalTimeout = 10
/// settings.allowedHosts = ["images.example.com", "*.cdn.example.com"]
/// settings.hosts["images.example.com"] = .init(credentials: .bearer(token: "s3cret"))
/// ```
public struct HTTPSourceSettings: Sendable, Hashable {
    /// Seconds to resolve and connect (TCP and TLS).
    public var connectTimeout: Double = 10
    /// Seconds for the whole transfer, connecting included.
    public var totalTimeout: Double = 30
    /// A transfer slower than this many bytes per second for ``lowSpeedTime`` seconds is cut.
    public var lowSpeedLimit: Int = 1024
    /// Seconds a transfer may stay below ``lowSpeedLimit`` before it is cut (rounded up to whole
    /// seconds).
    public var lowSpeedTime: Double = 10
    /// The largest body accepted, in bytes; a larger one is aborted as soon as it is announced
    /// or received.
    public var maxResponseBytes: Int = 50 * 1024 * 1024
    /// Redirects followed per load (0 refuses every redirect).
    public var maxRedirects: Int = 5
    /// Media types accepted in addition to ``defaultContentTypes``.
    public var additionalContentTypes: [String] = []
    /// Hosts that may be fetched, checked on the URL and on every redirect: exact names, or
    /// `"*.example.com"` for any subdomain of example.com. Empty = any host.
    public var allowedHosts: [String] = []
    /// Ports that may be fetched, checked on the URL and on every redirect; `[]` allows any.
    /// `nil` (the default) is 80 and 443 while ``allowedHosts`` is empty, any port otherwise
    /// (``effectiveAllowedPorts``): a server fetching any host's URLs does not probe other ports.
    public var allowedPorts: [Int]?
    /// Lets connections reach loopback, private, link-local, unspecified, CGNAT, multicast,
    /// reserved and IPv4-translating (NAT64, 6to4, Teredo) addresses
    /// (refused by default, checked on the resolved address of every connection).
    public var allowPrivateNetworks = false
    /// Retries of transient failures.
    public var retry = Retry()
    /// The `User-Agent` header.
    public var userAgent = "Darkroom"
    /// Headers sent to every host.
    public var headers: [String: String] = [:]
    /// Credentials and headers by exact host name (lower-case).
    public var hosts: [String: HostSettings] = [:]
    /// A PEM file of certificate authorities that https servers' certificates must chain to,
    /// instead of the system's (a private CA); `nil` = the system's. Names are checked either way.
    public var caFile: String?

    /// Builds the default settings, safe for a server fetching user-supplied URLs (see ``HTTPSourceSettings``).
    public init() {}

    // MARK: - Content types

    /// AlamofireImage's acceptable image types, plus the modern formats Darkroom reads.
    /// `application/octet-stream` is accepted because storage services serve images with it;
    /// the bytes' signature is checked regardless.
    public static let defaultContentTypes: [String] = [
        "image/tiff", "image/jpeg", "image/gif", "image/png", "image/ico", "image/x-icon", "image/bmp",
        "image/x-bmp", "image/x-xbitmap", "image/x-ms-bmp", "image/x-win-bitmap", "image/jpg", "image/pjpeg",
        "image/webp", "image/avif", "image/heif", "image/heic", "image/x-tga", "application/octet-stream",
    ]

    /// Every accepted media type, lower-case.
    public var acceptableContentTypes: Set<String> {
        Set((Self.defaultContentTypes + additionalContentTypes).map { $0.lowercased() })
    }

    /// Whether a `Content-Type` value is acceptable: parameters (`; charset=…`) are ignored
    /// and a missing type is accepted (the bytes are checked anyway).
    public func accepts(contentType: String?) -> Bool {
        guard let contentType else { return true }
        let essence = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let trimmed = essence.trimmingSpaces.lowercased()
        return trimmed.isEmpty || acceptableContentTypes.contains(trimmed)
    }

    // MARK: - Hosts

    /// The ports allowed: ``allowedPorts``, or its default; `nil` when any port is.
    public var effectiveAllowedPorts: [Int]? {
        let ports = allowedPorts ?? (allowedHosts.isEmpty ? [80, 443] : [])
        return ports.isEmpty ? nil : ports
    }

    /// Whether `host` (any case) may be fetched under ``allowedHosts``.
    public func allows(host: String) -> Bool {
        guard !allowedHosts.isEmpty else { return true }
        let host = host.lowercased()
        return allowedHosts.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern.hasPrefix("*.") {
                return host.hasSuffix(String(pattern.dropFirst()))
            }
            return host == pattern
        }
    }

    /// The settings for `host` (any case), if any: an exact entry first, then the longest
    /// matching wildcard (`"*.example.com"` matches `a.example.com` and `b.a.example.com`, not
    /// `example.com`), then `"*"`, which applies to every host (AlamofireImage's
    /// downloader-wide credential).
    ///
    /// ```swift
    /// settings.hosts["*.cdn.example.com"] = .init(credentials: .bearer(token: token))
    /// settings.settings(forHost: "eu.cdn.example.com")?.credentials  // .bearer(token)
    /// ```
    public func settings(forHost host: String) -> HostSettings? {
        let host = host.lowercased()
        if let exact = hosts[host] ?? hosts.first(where: { $0.key.lowercased() == host })?.value { return exact }
        let wildcard = hosts.filter { entry in
            let pattern = entry.key.lowercased()
            return pattern.hasPrefix("*.") && host.hasSuffix(pattern.dropFirst()) && host.count > pattern.count - 1
        }.max { $0.key.count < $1.key.count }
        return wildcard?.value ?? hosts["*"]
    }

    // MARK: - Retry

    /// Retries of connection failures, connect timeouts, 5xx and 429 answers: never of other
    /// 4xx answers, limit violations or cancelled loads.
    public struct Retry: Sendable, Hashable {
        /// Retries after the first attempt (0 = none).
        public var maxRetries = 2
        /// The delay before the first retry; each further one doubles it, with ±25 % jitter.
        public var baseDelay: Double = 0.2
        /// No computed delay is longer than this.
        public var maxDelay: Double = 5
        /// A server's `Retry-After` is honoured up to this many seconds (longer = no retry).
        public var maxRetryAfter: Double = 10
        /// Builds the default policy: 2 retries, 0.2 s doubling to at most 5 s, and `Retry-After`
        /// honoured up to 10 s.
        public init() {}
    }

    // MARK: - Per host

    /// Credentials and headers for one host.
    public struct HostSettings: Sendable, Hashable {
        /// How to authenticate to the host; `nil` sends no credentials.
        public var credentials: Credentials?
        /// Headers sent to the host, after those in ``HTTPSourceSettings/headers`` (which go to every
        /// host).
        public var headers: [String: String]

        /// Builds a host's settings: its credentials (none by default) and extra headers (none by
        /// default).
        public init(credentials: Credentials? = nil, headers: [String: String] = [:]) {
            self.credentials = credentials
            self.headers = headers
        }
    }

    /// How to authenticate to a host.
    public enum Credentials: Sendable, Hashable, CustomStringConvertible {
        /// HTTP Basic.
        case basic(user: String, password: String)
        /// `Authorization: Bearer TOKEN`.
        case bearer(token: String)
        /// AWS Signature Version 4 (S3 and S3-compatible stores): every request signed with
        /// the access key for `region` and `service` (`s3`); `sessionToken` for temporary
        /// credentials (`X-Amz-Security-Token`).
        case awsSignatureV4(accessKey: String, secretKey: String, sessionToken: String?, region: String, service: String)

        /// Never shows the secret.
        public var description: String {
            switch self {
            case let .basic(user, _): "basic(user: \(user), password: ***)"
            case .bearer: "bearer(token: ***)"
            case let .awsSignatureV4(accessKey, _, _, region, service):
                "awsSignatureV4(accessKey: \(accessKey), secretKey: ***, region: \(region), service: \(service))"
            }
        }
    }
}
