import Logging
import Synchronization

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
        // Nothing is built for a line the level leaves out (it cost 4 % of a memory hit's CPU).
        guard logger.logLevel <= (response.status >= 500 ? .notice : .info) else { return }
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
/// `-_.:`, otherwise a new one (32 hexadecimal digits): a random 64-bit prefix drawn once per
/// process, then a request counter through a bijective mixer, so new ids never repeat within
/// a process and no request pays for random numbers (two `getrandom` calls each, before).
///
/// ```swift
/// RequestID.resolve("abc-123")   // "abc-123"
/// RequestID.resolve("a b\n")      // a new one
/// ```
enum RequestID {
    static func resolve(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count), given.utf8.allSatisfy(isAllowed) { return given }
        let count = counter.add(1, ordering: .relaxed).newValue
        return hex(processPrefix, mixed(count))
    }

    private static let processPrefix: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()

    private static let counter = Atomic<UInt64>(0)

    /// SplitMix64's finaliser: a bijection on 64-bit values, so distinct counts give distinct ids.
    private static func mixed(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"): true
        default: false
        }
    }

    /// `high` then `low`, each as 16 lowercase hexadecimal digits, written straight into the
    /// string's storage (`String(_:radix:)` and padding were 1.4 % of a memory hit's CPU).
    static func hex(_ high: UInt64, _ low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            for digit in 0..<32 {
                let value = digit < 16 ? high : low
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * (digit & 15))) & 0xF
                buffer[digit] = nibble < 10 ? nibble + UInt8(ascii: "0") : nibble - 10 + UInt8(ascii: "a")
            }
            return 32
        }
    }
}
