import CCurlShims
import Crypto
import DarkroomCore

// MARK: - HTTPURL

/// An absolute http(s) URL, parsed by libcurl's own URL parser (so that what is checked is
/// what curl connects to) and normalised: scheme and host lower-case, no default port, no
/// fragment.
///
/// ```swift
/// try HTTPURL("HTTP://Images.Example.com:80/a.jpg#top").normalized  // "http://images.example.com/a.jpg"
/// ```
struct HTTPURL: Sendable, Hashable {
    /// The normalised URL.
    var normalized: String
    /// ``normalized`` with credentials written in the URL (`user:password@`) replaced by their
    /// SHA-256: the key caches and logs see. Caches persist keys, so they must not hold a
    /// password; different credentials still give different keys.
    var key: String
    /// `http` or `https`.
    var scheme: String
    /// The host, lower-case, without IPv6 brackets.
    var host: String
    /// The port, the scheme's default when none is written.
    var port: Int

    /// Parses `text`; `role` names it in errors ("URL", "redirect to …").
    /// - Throws: ``DarkroomError/fetchFailed(url:status:reason:kind:)`` for a malformed URL or a
    ///   scheme other than http and https.
    ///   Also thrown, with an install hint, when libcurl is not installed.
    init(_ text: String) throws {
        try CurlLibrary.require(url: text)
        guard let handle = ccurl_url() else {
            throw DarkroomError.fetchFailed(url: text, status: nil, reason: "out of memory")
        }
        defer { ccurl_url_cleanup(handle) }
        let parsed = ccurl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_NON_SUPPORT_SCHEME))
        guard parsed == CURLUE_OK else {
            let why = String(cString: ccurl_url_strerror(parsed))
            throw DarkroomError.fetchFailed(url: text, status: nil, reason: "not a valid URL (\(why.lowercased()))", kind: .invalidURL)
        }
        guard let scheme = Self.part(handle, CURLUPART_SCHEME)?.lowercased(), scheme == "http" || scheme == "https"
        else {
            let scheme = Self.part(handle, CURLUPART_SCHEME) ?? "none"
            throw DarkroomError.fetchFailed(
                url: text, status: nil, reason: "scheme \(scheme) is not supported: only http and https are allowed", kind: .invalidURL)
        }
        guard let host = Self.part(handle, CURLUPART_HOST)?.lowercased(), !host.isEmpty else {
            throw DarkroomError.fetchFailed(url: text, status: nil, reason: "not a valid URL (no host)", kind: .invalidURL)
        }
        _ = ccurl_url_set(handle, CURLUPART_SCHEME, scheme, 0)
        _ = ccurl_url_set(handle, CURLUPART_HOST, host, 0)
        _ = ccurl_url_set(handle, CURLUPART_FRAGMENT, nil, 0)
        guard let normalized = Self.part(handle, CURLUPART_URL, flags: UInt32(CURLU_NO_DEFAULT_PORT)) else {
            throw DarkroomError.fetchFailed(url: text, status: nil, reason: "not a valid URL", kind: .invalidURL)
        }
        self.normalized = normalized
        self.port = Self.part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)).flatMap { Int($0) } ?? (scheme == "https" ? 443 : 80)
        self.key = Self.withHashedCredentials(handle) ?? normalized
        self.scheme = scheme
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The URL in `handle` with its user and password replaced by `sha256-<hex>` of
    /// `user:password`; `nil` when it has neither.
    private static func withHashedCredentials(_ handle: OpaquePointer) -> String? {
        let user = part(handle, CURLUPART_USER), password = part(handle, CURLUPART_PASSWORD)
        guard user != nil || password != nil else { return nil }
        let digest = SHA256.hash(data: Array("\(user ?? ""):\(password ?? "")".utf8))
        let hex = digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        _ = ccurl_url_set(handle, CURLUPART_USER, "sha256-" + hex, 0)
        _ = ccurl_url_set(handle, CURLUPART_PASSWORD, nil, 0)
        return part(handle, CURLUPART_URL, flags: UInt32(CURLU_NO_DEFAULT_PORT))
    }

    /// Whether `text` starts with `http://` or `https://` (any case). Cheap; no parsing.
    static func hasHTTPScheme(_ text: String) -> Bool {
        let lower = text.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    private static func part(_ handle: OpaquePointer, _ part: CURLUPart, flags: UInt32 = 0) -> String? {
        var out: UnsafeMutablePointer<CChar>?
        guard ccurl_url_get(handle, part, &out, flags) == CURLUE_OK, let out else { return nil }
        defer { ccurl_free(out) }
        return String(cString: out)
    }
}
