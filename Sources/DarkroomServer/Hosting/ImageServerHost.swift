import Darkroom
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

// MARK: - ImageServerHost

/// Serves an ``ImageServer`` over HTTP/1.1 with Hummingbird, until SIGTERM or SIGINT (then it
/// finishes the requests in flight) or until the calling task is cancelled. A client that
/// closes its connection before its answer is ready cancels the request (logged as 499), so
/// abandoned renders do not hold the workers.
///
/// ```swift
/// let host = ImageServerHost(server: server, host: "0.0.0.0", port: 8080, idleTimeout: 30)
/// try await host.run { address in print("listening on \(address)") }
/// ```
public struct ImageServerHost: Sendable {
    /// The server that answers every request.
    public let server: ImageServer
    /// The address to listen on: a host name or IP address (default `127.0.0.1`, this machine
    /// only; `0.0.0.0` listens on every interface).
    public let host: String
    /// The port to listen on; `0` picks a free one (`run(onListening:)` reports it).
    public let port: Int
    /// Where the access log (one line per request) and the server's own messages go; a
    /// `darkroom.server` logger unless given.
    public var logger: Logger
    /// Seconds a connection may sit between requests (or in the middle of sending one) before
    /// it is closed, and seconds a request may take to arrive whole after its headers (its body
    /// trickling in), so idle and trickling clients cannot hold connections forever; `nil` for
    /// no limit. A request read whole and being answered is never cut.
    public var idleTimeout: Double?

    /// Creates a host for `server` listening on `host` and `port`, closing idle connections after
    /// `idleTimeout` seconds (`nil` for no limit), and logging to `logger` (a `darkroom.server`
    /// logger when `nil`).
    public init(
        server: ImageServer, host: String = "127.0.0.1", port: Int = 8080, idleTimeout: Double? = 60, logger: Logger? = nil
    ) {
        self.server = server
        self.host = host
        self.port = port
        self.idleTimeout = idleTimeout
        self.logger = logger ?? Logger(label: "darkroom.server")
    }

    /// Runs the server; `onListening` gets `http://HOST:PORT` once connections are accepted.
    public func run(
        gracefulShutdownSignals: Bool = true, onListening: @escaping @Sendable (String) async -> Void = { _ in }
    ) async throws {
        let server = self.server
        let logger = self.logger
        // Memory hits answered with remembered header fields (see PreparedHitHeaders), except
        // with format negotiation: the answer depends on Accept.
        let prepared = PreparedHitHeaders()
        let preparesHits = server.negotiation == nil
        let responder = CallbackResponder<ImageServerRequestContext> { request, context in
            // The access log's clock, read only when a line can be written (see AccessLog).
            let started = logger.logLevel <= .notice ? ContinuousClock.now : nil
            let requestID = RequestID.resolve(request.headers[Self.requestIDField])
            let path = request.head.path ?? "/"
            if preparesHits, request.method == .get, request.headers[.ifNoneMatch] == nil,
                let (answer, hit) = Self.preparedAnswer(for: path, requestID: requestID, from: prepared, server: server) {
                // The access log's line (a 200 is logged at info), as the whole path writes it.
                if logger.logLevel <= .info {
                    AccessLog.log(
                        ImageServerRequest(method: "GET", path: path),
                        ImageServerResponse(status: 200, headers: [("X-Darkroom-Cache", hit.cacheLayer.rawValue)], body: hit.bytes),
                        requestID: requestID, duration: started.map { ContinuousClock.now - $0 } ?? .zero, to: logger)
                }
                return answer
            }
            // Only the admin endpoint reads a body (bounded); image requests never do.
            var body: [UInt8] = []
            var refused: ImageServerResponse?
            if request.method == .post, path.hasPrefix("/admin/") {
                if let buffer = try? await request.body.collect(upTo: ImageServerRequest.maximumBodySize) {
                    body = Array(buffer.readableBytesView)
                } else {
                    refused = .failure(ServerFailure(
                        status: 413, message: "the request body is over \(ImageServerRequest.maximumBodySize) bytes"))
                }
            }
            let served = ImageServerRequest(
                method: request.method.rawValue, path: path, ifNoneMatch: request.headers[.ifNoneMatch],
                accept: request.headers[.accept], authorization: request.headers[.authorization], body: body)
            // A memory hit is answered here, without a task; a client that leaves (closes or
            // drops the connection) cancels its render.
            var answered: ImageServerResponse
            if let refused {
                answered = refused
            } else if let hit = server.immediateHit(to: served) {
                if preparesHits, served.method == "GET", served.ifNoneMatch == nil, hit.response.status == 200,
                    PreparedHit.canDescribe(hit.image), let digest = hit.image.contentDigest {
                    prepared.remember(path, PreparedHit(
                        source: hit.source, variant: hit.variant, digest: digest, layer: hit.image.cacheLayer,
                        fields: Self.fields(of: hit.response) + [HTTPField(name: Self.requestIDField, value: requestID)]))
                }
                answered = hit.response
            } else if let connection = context.connection {
                answered = await connection.serve { await server.respond(to: served) }
            } else {
                answered = await server.respond(to: served)
            }
            answered.headers.append(("X-Request-ID", requestID))
            AccessLog.log(served, answered, requestID: requestID, duration: started.map { ContinuousClock.now - $0 } ?? .zero, to: logger)
            return Self.hummingbirdResponse(answered)
        }
        let host = self.host
        let idle = idleTimeout.map { TimeAmount.nanoseconds(Int64($0 * 1_000_000_000)) }
        let application = Application(
            responder: responder,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [ClientDisconnectHandler()] + (idle.map { [RequestDeadlineHandler(timeout: $0)] } ?? []),
                    idleTimeout: idle)),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "darkroom"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                await onListening("http://\(shown):\(port)")
            },
            logger: logger)
        if gracefulShutdownSignals {
            try await application.runService()
        } else {
            try await application.runService(gracefulShutdownSignals: [])
        }
    }

    static let requestIDField = HTTPField.Name("X-Request-ID")!

    /// The field name for `name`: the names a memory hit carries are made once (string
    /// equality of short ASCII names is a word compare), any other is checked as it comes
    /// (`nil` when it is not a valid HTTP token). `HTTPField.Name(_:)` checks and lowercases its
    /// text, a fifth of the header conversion on every hit.
    static func fieldName(_ name: String) -> HTTPField.Name? {
        switch name {
        case "Content-Type": .contentType
        case "ETag": .eTag
        case "Cache-Control": .cacheControl
        case "Content-Length": .contentLength
        case "X-Request-ID": requestIDField
        case "X-Darkroom-Cache": cacheLayerField
        case "Vary": .vary
        default: HTTPField.Name(name)
        }
    }

    private static let cacheLayerField = HTTPField.Name("X-Darkroom-Cache")!

    /// `text` with control characters written as `\u{A}`, so it stays one log line.
    ///
    /// ```swift
    /// ImageServerHost.logSafe("a\nb")   // "a\\u{A}b"
    /// ```
    public static func logSafe(_ text: String) -> String {
        var safe = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                safe += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    /// The answer to a GET of `path` with the header fields remembered for it, and the memory
    /// hit it carries, if the memory cache holds the render they were made for (see
    /// ``PreparedHitHeaders``); `nil` otherwise.
    static func preparedAnswer(
        for path: String, requestID: String, from prepared: PreparedHitHeaders, server: ImageServer
    ) -> (Response, ImageResponse)? {
        guard let entry = prepared.entry(for: path),
            let hit = server.pipeline.memoryHit(for: entry.source, variant: entry.variant), entry.describes(hit)
        else { return nil }
        server.settings.metrics?.record(status: 200)
        var fields = entry.fields
        // The last field is the request id's place, replaced by position: cheaper than the
        // by-name setter's search, and than appending (a generic range replacement).
        fields[fields.index(before: fields.endIndex)] = HTTPField(name: requestIDField, value: requestID)
        return (Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: hit.bytes))), hit)
    }

    /// The Hummingbird response carrying `response`.
    static func hummingbirdResponse(_ response: ImageServerResponse) -> Response {
        let body = response.body.isEmpty ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: response.body))
        return Response(status: HTTPResponse.Status(code: response.status), headers: fields(of: response), body: body)
    }

    /// The header fields of `response`, in order.
    static func fields(of response: ImageServerResponse) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in response.headers {
            guard let name = fieldName(name) else { continue }
            // The by-name setter specialises to these types; `append` is HTTPFields'
            // unspecialised generic range replacement, a third of this conversion's time.
            if fields.contains(name) {
                fields.append(HTTPField(name: name, value: value))  // a repeated name stays beside the first
            } else {
                fields[name] = value
            }
        }
        return fields
    }
}
