import Logging

// MARK: - AccessLog

/// One log line per request, as nginx's access log or imgproxy's request log: at `info`,
/// `METHOD PATH STATUS` with the metadata `request_id`, `method`, `path`, `status`, `bytes`
/// (of body sent), `duration_ms`, and `cache` (the layer that answered, or `rendered`) when
/// an image was served. Server-side failures (5xx) are logged at `notice` with their `error`.
///
/// Paths are written with control characters escaped (``ImageServerHost/logSafe(_:)``): a
/// client's decoded path never forges a line of its own.
///
/// ```text
/// 2026-11-27T23:15:18+0000 info darkroom.server: bytes=4312 cache=rendered duration_ms=8.214 method=GET path=/thumb/a.jpg request_id=5f0c… status=200 GET /thumb/a.jpg 200
/// ```
enum AccessLog {
    static func log(
        _ request: ImageServerRequest, _ response: ImageServerResponse, requestID: String, duration: Duration, to logger: Logger
    ) {
        let path = ImageServerHost.logSafe(request.path)
        var metadata: Logger.Metadata = [
            "request_id": .string(requestID),
            "method": .string(request.method),
            "path": .string(path),
            "status": .stringConvertible(response.status),
            "bytes": .stringConvertible(response.body.count),
            "duration_ms": .stringConvertible(milliseconds(duration)),
        ]
        if let layer = response.header("X-Darkroom-Cache") { metadata["cache"] = .string(layer) }
        let line: Logger.Message = "\(request.method) \(path) \(response.status)"
        if response.status >= 500 {
            let message = String(decoding: response.body, as: UTF8.self)
            metadata["error"] = .string(ImageServerHost.logSafe(message.hasSuffix("\n") ? String(message.dropLast()) : message))
            logger.notice(line, metadata: metadata)
        } else {
            logger.info(line, metadata: metadata)
        }
    }

    /// `duration` in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000) / 1000)
    }
}

// MARK: - RequestID

/// The id of a request in the access log and in the `X-Request-ID` answer header: the
/// client's (or proxy's) `X-Request-ID` when it is 1–128 characters of letters, digits and
/// `-_.:`, otherwise a new random one (32 hexadecimal digits).
///
/// ```swift
/// RequestID.resolve("abc-123")   // "abc-123"
/// RequestID.resolve("a b\n")      // a new one
/// ```
enum RequestID {
    static func resolve(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count), given.utf8.allSatisfy(isAllowed) { return given }
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"): true
        default: false
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
