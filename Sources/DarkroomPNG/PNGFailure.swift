import CPNG
import DarkroomCore

// MARK: - PNGFailure

/// Turns a failed CPNG status and libpng's message into a ``DarkroomError``.
enum PNGFailure {
    static func error(_ status: cpng_status, message: String, encoding: Bool) -> DarkroomError {
        let detail = message.isEmpty ? "libpng failed without a message" : message
        if encoding {
            return .encodeFailed(.png, detail: status == CPNG_OUT_OF_MEMORY ? "out of memory (\(detail))" : detail)
        }
        switch status {
        case CPNG_TRUNCATED: return .truncated(.png, detail: detail)
        case CPNG_CORRUPT: return .corrupt(.png, detail: detail)
        case CPNG_OUT_OF_MEMORY: return .decodeFailed(.png, detail: "out of memory (\(detail))")
        default: return .decodeFailed(.png, detail: detail)
        }
    }
}
