// MARK: - ImageServerResponse

/// What an ``ImageServer`` answers: a status, headers in order, and a body. Independent of the
/// HTTP library that carries it (``ImageServerHost`` hands it to Hummingbird).
///
/// ```swift
/// let response = await server.respond(to: ImageServerRequest(method: "GET", path: "/thumbnail/cat.jpg"))
/// response.status                    // 200
/// response.header("Content-Type")    // "image/jpeg"
/// ```
public struct ImageServerResponse: Sendable {
    /// The HTTP status code (`200`, `304`, `404`, …).
    public var status: Int
    /// The headers, in the order they are sent; a name may occur more than once.
    public var headers: [(name: String, value: String)]
    /// The bytes sent after the headers; empty for `HEAD` requests and `304`s.
    public var body: [UInt8]

    /// Creates a response with `status`, `headers` in the order they are sent, and `body`.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by name in any case.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// A `200` text response, never cached (`/health`, `/metrics`).
    static func text(_ body: String, isHead: Bool) -> ImageServerResponse {
        text(Array(body.utf8), type: "text/plain; charset=utf-8", isHead: isHead)
    }

    /// ``text(_:isHead:)`` with bytes of any text type.
    static func text(_ body: [UInt8], type: String, isHead: Bool) -> ImageServerResponse {
        ImageServerResponse(
            status: 200,
            headers: [("Content-Type", type), ("Cache-Control", "no-store"), ("Content-Length", String(body.count))],
            body: isHead ? [] : body)
    }

    /// A plain-text error response; never cached, since the cause may pass.
    static func failure(_ failure: ServerFailure) -> ImageServerResponse {
        var response = ImageServerResponse(
            status: failure.status,
            headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
            body: Array("\(failure.message)\n".utf8))
        if failure.status == 405 { response.headers.append(("Allow", failure.allowed ?? "GET, HEAD")) }
        if failure.status == 401 { response.headers.append(("WWW-Authenticate", "Bearer")) }
        if let seconds = failure.retryAfter { response.headers.append(("Retry-After", String(seconds))) }
        return response
    }
}

// MARK: - ImageServerRequest

/// The parts of an HTTP request an ``ImageServer`` looks at.
///
/// ```swift
/// let request = ImageServerRequest(method: "GET", path: "/avatar/team/ana.jpg", ifNoneMatch: #""5d41…""#)
/// ```
public struct ImageServerRequest: Sendable {
    /// `GET`, `HEAD`, …
    public var method: String
    /// The raw path, percent-encoded as sent; a query string after `?` is ignored.
    public var path: String
    /// The `If-None-Match` header, if any.
    public var ifNoneMatch: String?
    /// The `Accept` header, if any (for ``FormatNegotiation``).
    public var accept: String?

    /// The `Authorization` header, if any (the admin endpoint's bearer token).
    public var authorization: String?
    /// The request body (read for the admin endpoint only, at most ``maximumBodySize`` bytes).
    public var body: [UInt8]

    /// The largest request body the server reads.
    public static let maximumBodySize = 64 * 1024

    /// Creates a request; the headers not given are taken as absent, and `body` as empty.
    public init(
        method: String, path: String, ifNoneMatch: String? = nil, accept: String? = nil, authorization: String? = nil,
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.ifNoneMatch = ifNoneMatch
        self.accept = accept
        self.authorization = authorization
        self.body = body
    }
}
