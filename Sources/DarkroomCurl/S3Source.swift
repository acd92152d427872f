import DarkroomCore
import FoundationEssentials
import Logging

// MARK: - S3SourceSettings

/// Where an ``S3Source`` reads objects from and how it signs: plain data, read from
/// `[sources.s3]` by the standard source kind (see the Darkroom module's registry).
///
/// ```swift
/// var settings = S3SourceSettings(buckets: ["photos"], accessKey: key, secretKey: secret)
/// settings.endpoint = "http://127.0.0.1:9000"   // an S3-compatible store; path-style by default
/// let source = try S3Source(settings: settings)
/// ```
public struct S3SourceSettings: Sendable, Hashable {
    /// `scheme://host[:port]` of an S3-compatible store; `nil` is AWS (`https://s3.REGION.amazonaws.com`).
    public var endpoint: String?
    /// The region requests are signed for, which also names the AWS endpoint when ``endpoint`` is
    /// `nil`; `us-east-1` by default.
    public var region: String = "us-east-1"
    /// `http://host/bucket/key` (S3-compatible stores) rather than `http://bucket.host/key`.
    public var pathStyle: Bool
    /// The buckets objects may be read from; any other is refused.
    public var buckets: [String]
    /// The access key ID requests are signed with.
    public var accessKey: String
    /// The secret access key requests are signed with.
    public var secretKey: String
    /// The session token of temporary credentials, sent as `X-Amz-Security-Token`; `nil` for
    /// long-term keys.
    public var sessionToken: String?
    /// Timeouts, the byte limit and retries, as for the HTTP source (hosts, credentials,
    /// redirects and address rules are the S3 source's own).
    public var transfer = HTTPSourceSettings()

    /// Builds settings for reading `buckets` with the given key pair; a `nil` `endpoint` is AWS,
    /// and `pathStyle` defaults to `true` exactly when an endpoint is given.
    public init(buckets: [String], accessKey: String, secretKey: String, endpoint: String? = nil, pathStyle: Bool? = nil) {
        self.buckets = buckets
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.endpoint = endpoint
        self.pathStyle = pathStyle ?? (endpoint != nil)
    }

    /// Whether `name` is a bucket name S3 accepts: 3–63 of `a-z 0-9 . -`, starting and ending
    /// with a letter or digit.
    public static func isValidBucketName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard (3...63).contains(scalars.count) else { return false }
        let allowed: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
        let alphanumeric: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        return scalars.allSatisfy(allowed) && alphanumeric(scalars.first!) && alphanumeric(scalars.last!)
    }
}

// MARK: - S3Source

/// Reads `s3://BUCKET/KEY` objects from S3 or an S3-compatible store, signed with AWS
/// Signature V4 by libcurl, through the HTTP source's machinery: the same timeouts, byte
/// limit, retries of transient failures, content checks, and ETag revalidation
/// (`If-None-Match` → `304`). Only the configured buckets are read; the endpoint is the only
/// host contacted (redirects are refused), and, being the operator's, it may be on a private
/// network.
///
/// Errors name the `s3://` location: a wrong key or secret is a `.refused` failure (403) with
/// S3's own code (`SignatureDoesNotMatch`, `InvalidAccessKeyId`, `AccessDenied`); a missing
/// object is a 404.
///
/// ```swift
/// let data = try await source.load("s3://photos/cats/tom.jpg")
/// ```
public final class S3Source: ImageSource {
    public let name = "s3"
    /// The settings the source was built with.
    public let settings: S3SourceSettings
    private let http: HTTPSource
    /// The endpoint's scheme, and its host (IPv6 in brackets) with the port unless the scheme's default.
    private let endpoint: (scheme: String, authority: String)

    /// - Throws: `DarkroomError/fetchFailed(url:status:reason:kind:)` (`.invalidURL`) for an
    ///   endpoint that is not `http(s)://host[:port]`.
    public init(settings: S3SourceSettings, logger: Logger = Logger(label: "darkroom.s3")) throws {
        let endpointText = settings.endpoint ?? "https://s3.\(settings.region).amazonaws.com"
        let url = try HTTPURL(endpointText)
        let defaultPort = url.scheme == "https" ? 443 : 80
        let authority = (url.host.contains(":") ? "[\(url.host)]" : url.host) + (url.port == defaultPort ? "" : ":\(url.port)")
        // Nothing after host and port: a path (or query) would be lost in every object URL.
        guard url.normalized == "\(url.scheme)://\(authority)/" || url.normalized == "\(url.scheme)://\(authority)" else {
            throw DarkroomError.fetchFailed(
                url: endpointText, status: nil, reason: "an S3 endpoint is scheme://host[:port], without a path", kind: .invalidURL)
        }
        self.settings = settings
        self.endpoint = (url.scheme, authority)
        var transfer = settings.transfer
        transfer.maxRedirects = 0
        transfer.allowPrivateNetworks = settings.endpoint != nil
        let credentials = HTTPSourceSettings.Credentials.awsSignatureV4(
            accessKey: settings.accessKey, secretKey: settings.secretKey, sessionToken: settings.sessionToken,
            region: settings.region, service: "s3")
        transfer.allowedHosts = [url.host, "*." + url.host]
        transfer.hosts = [url.host: .init(credentials: credentials), "*." + url.host: .init(credentials: credentials)]
        self.http = HTTPSource(settings: transfer, logger: logger)
    }

    // MARK: - ImageSource

    /// `s3://` locations (scheme in any case).
    public func canLoad(_ location: String) -> Bool {
        location.prefix(5).lowercased() == "s3://"
    }

    /// `s3://BUCKET/KEY`, the scheme lower-case.
    public func key(for location: String) throws -> String {
        let (bucket, key) = try parse(location)
        return "s3://\(bucket)/\(key)"
    }

    /// No fingerprint without asking the store: renders are reused until purged or expired,
    /// as for HTTP.
    public func fingerprint(for location: String) throws -> String? { nil }

    public func load(_ location: String) async throws -> SourceData {
        try await load(location, revalidating: nil).data
    }

    public func load(_ location: String, revalidating cached: SourceData?) async throws -> SourceLoadOutcome {
        let (bucket, key) = try parse(location)
        let url = objectURL(bucket: bucket, key: key)
        do {
            var outcome = try await http.load(url, revalidating: cached)
            switch outcome {
            case var .loaded(data):
                data.key = "s3://\(bucket)/\(key)"
                outcome = .loaded(data)
            case var .notModified(data):
                data.key = "s3://\(bucket)/\(key)"
                outcome = .notModified(data)
            }
            return outcome
        } catch let DarkroomError.fetchFailed(_, status, reason, kind) {
            throw Self.failure(location: location, status: status, reason: reason, kind: kind)
        }
    }

    // MARK: - Locations

    /// The bucket and key of `s3://BUCKET/KEY`, the bucket allowed.
    private func parse(_ location: String) throws -> (bucket: String, key: String) {
        guard canLoad(location) else {
            throw DarkroomError.fetchFailed(url: location, status: nil, reason: "not an s3:// location", kind: .invalidURL)
        }
        let rest = location.dropFirst(5)
        guard let slash = rest.firstIndex(of: "/") else {
            throw DarkroomError.fetchFailed(url: location, status: nil, reason: "no object key: expected s3://BUCKET/KEY", kind: .invalidURL)
        }
        let bucket = String(rest[..<slash]), key = String(rest[rest.index(after: slash)...])
        guard S3SourceSettings.isValidBucketName(bucket) else {
            throw DarkroomError.fetchFailed(
                url: location, status: nil, reason: "'\(bucket)' is not a bucket name (3–63 of a-z, 0-9, '.', '-')", kind: .invalidURL)
        }
        guard !key.isEmpty, key.utf8.count <= 1024, !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw DarkroomError.fetchFailed(
                url: location, status: nil, reason: "the object key must be 1–1024 bytes without control characters", kind: .invalidURL)
        }
        guard settings.buckets.contains(bucket) else {
            throw DarkroomError.fetchFailed(
                url: location, status: nil,
                reason: "bucket \(bucket) is not in buckets (\(settings.buckets.joined(separator: ", "))) of [sources.s3]", kind: .refused)
        }
        return (bucket, key)
    }

    /// The object's URL on the endpoint, the key percent-encoded once (as SigV4 signs it).
    func objectURL(bucket: String, key: String) -> String {
        let path = Self.percentEncoded(key)
        if settings.pathStyle {
            return "\(endpoint.scheme)://\(endpoint.authority)/\(bucket)/\(path)"
        }
        return "\(endpoint.scheme)://\(bucket).\(endpoint.authority)/\(path)"
    }

    /// Every byte but the unreserved ones and `/` as `%XX` (AWS's URI encoding of a key).
    static func percentEncoded(_ key: String) -> String {
        var encoded = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hex[Int(byte >> 4)])
                encoded.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return encoded
    }

    /// The HTTP source's failure, named by the `s3://` location; a refused signature is `.refused`.
    private static func failure(location: String, status: Int?, reason: String, kind: FetchFailureKind) -> DarkroomError {
        guard status == 401 || status == 403 else {
            return .fetchFailed(url: location, status: status, reason: reason, kind: kind)
        }
        return .fetchFailed(
            url: location, status: status,
            reason: "\(reason): the store refused the credentials (check access-key-env and secret-key-env of [sources.s3], and the key's permissions)",
            kind: .refused)
    }
}
