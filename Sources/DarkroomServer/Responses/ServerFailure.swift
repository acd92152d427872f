import Darkroom
import DarkroomCore

// MARK: - ServerFailure

/// An HTTP error status and the message that goes with it, as plain text, naming what was
/// wrong: `404 unknown variant 'thumbnial' (did you mean 'thumbnail'?)`.
///
/// Darkroom's errors map to statuses the way an image proxy's clients expect:
///
/// | status | when |
/// | --- | --- |
/// | 400 | a malformed path, a source no source type accepts, an invalid URL |
/// | 403 | a missing or wrong signature, a file outside the root, a host not allowed, a source type switched off |
/// | 404 | an unknown variant, a missing file, a remote 404 or 410 |
/// | 401 | the admin endpoint without the right bearer token |
/// | 405 | a method other than GET and HEAD (POST for the admin endpoint) |
/// | 422 | bytes that are not a readable image, or too large (pixels or bytes); a variant that cannot apply to this source (a crop outside it, an output over the pixel limit) |
/// | 500 | an encoder or other internal failure |
/// | 502 | any other failed fetch |
/// | 503 | work cancelled (the server is stopping); work that waited past the queue timeout for room in the memory budget (with `Retry-After`) |
/// | 504 | a fetch that timed out (connect, total or low-speed limit) |
///
/// ```swift
/// let failure = ServerFailure(DarkroomError.tooManyPixels(width: 40_000, height: 40_000, limit: 100_000_000))
/// failure.status   // 422
/// ```
public struct ServerFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code the failure is answered with (see the table in ``ServerFailure``).
    public var status: Int
    /// What was wrong, sent as the plain-text body.
    public var message: String
    /// For a 405: the methods the path takes (`Allow`); `nil` is `GET, HEAD`.
    public var allowed: String?
    /// For a 503 the client may retry: the seconds it should wait (`Retry-After`).
    public var retryAfter: Int?

    /// Creates a failure answered with `status` and `message`; `allowed` is the `Allow` header
    /// of a 405 (`nil`: `GET, HEAD`), `retryAfter` the `Retry-After` seconds of a 503.
    public init(status: Int, message: String, allowed: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.allowed = allowed
        self.retryAfter = retryAfter
    }

    /// A `400 Bad Request` with `message`.
    public static func badRequest(_ message: String) -> ServerFailure { .init(status: 400, message: message) }
    /// A `403 Forbidden` with `message`.
    public static func forbidden(_ message: String) -> ServerFailure { .init(status: 403, message: message) }
    /// A `404 Not Found` with `message`.
    public static func notFound(_ message: String) -> ServerFailure { .init(status: 404, message: message) }

    public var description: String { "\(status) \(message)" }

    // MARK: - From errors

    /// The status and message for an error thrown while serving an image.
    public init(_ error: any Error) {
        switch error {
        case let failure as ServerFailure:
            self = failure
        case let error as DarkroomError:
            self.init(status: Self.status(of: error), message: Self.message(of: error))
        case let busy as ImagePipelineBusy:
            self.init(status: 503, message: busy.description, retryAfter: busy.retryAfter)
        case is CancellationError:
            self.init(status: 503, message: "cancelled: the server is stopping")
        default:
            self.init(status: 500, message: String(describing: error))
        }
    }

    /// The error's description, without quoting the bytes of something that is not an image
    /// (a file under the root may hold secrets: `.env` "starts with DB_PASSWORD=…").
    private static func message(of error: DarkroomError) -> String {
        guard case .unrecognizedFormat(let hint) = error, let quote = hint.firstRange(of: " (starts with ") else {
            return error.description
        }
        return DarkroomError.unrecognizedFormat(hint: String(hint[..<quote.lowerBound])).description
    }

    private static func status(of error: DarkroomError) -> Int {
        switch error {
        case let .invalidArgument(name, _, _):
            switch name {
            case "variant": return 404
            case "file location": return 403
            // Routing refuses malformed requests with its own failures (400); what is left
            // comes from rendering this source (a crop outside it, an output over the limit).
            default: return 422
            }
        case let .io(_, detail):
            // A folder or a device at the path is no more an image than nothing is.
            for missing in [
                "no such file", "not a directory", "is a directory", "not a regular file", "file name too long",
                "too many levels of symbolic links",
            ] where detail.contains(missing) { return 404 }
            return detail.contains("permission denied") ? 403 : 500
        case let .fetchFailed(_, status, _, kind):
            // Any source's 404 or 410 (a third-party source may leave the kind .other).
            if status == 404 || status == 410 { return 404 }
            switch kind {
            case .timedOut: return 504
            case .invalidURL: return 400
            case .refused: return 403
            case .httpStatus, .connection, .tooLarge, .invalidResponse, .other: return 502
            }
        case .noComponent(let kind, _):
            return kind == "source" ? 400 : 500
        case .emptyInput, .inputTooLarge, .unrecognizedFormat, .unsupportedFormat, .truncated, .corrupt,
            .tooManyPixels, .frameTooLarge, .tooManyFrames, .invalidDimensions, .decodeFailed, .outputTooLarge:
            return 422
        case .encodeFailed:
            return 500
        case .cancelled:
            return 503
        }
    }
}
