// MARK: - FetchFailureKind

/// What kind of failure a ``DarkroomError/fetchFailed(url:status:reason:kind:)`` is, for code
/// that acts on it — an image server choosing its status, a caller deciding whether to retry —
/// without reading the reason's words, which are for people.
///
/// ```swift
/// if case let .fetchFailed(_, _, _, kind) = error, kind == .timedOut { /* answer 504 */ }
/// ```
public enum FetchFailureKind: String, Sendable, Equatable, Codable, CaseIterable {
    /// The location is not a valid http(s) URL.
    case invalidURL
    /// A rule refused the fetch: a host not in `allowed-hosts`, a private address, a redirect
    /// to another scheme or to a refused host.
    case refused
    /// The server answered with an error status (`status` says which).
    case httpStatus
    /// A connect, total or low-speed timeout.
    case timedOut
    /// The server could not be resolved or reached, or the connection failed or was cut.
    case connection
    /// The response is larger than the configured limit.
    case tooLarge
    /// The server answered, but not with an image: a wrong content type, an empty body, bytes
    /// that are no image, a redirect without a location, too many redirects.
    case invalidResponse
    /// Anything else (an internal failure of the HTTP client).
    case other
}
