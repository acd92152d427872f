import CJPEG
import DarkroomCore

// MARK: - Turning CJPEG statuses into DarkroomError

/// Maps the C wall's status codes and messages to ``DarkroomError``s that name JPEG.
enum LibJPEGStatus {
    /// Throws the error for `status` unless it is `CJPEG_OK`; the detail is the decoder's message.
    static func check(_ status: cjpeg_status, _ decoder: OpaquePointer) throws {
        guard status != CJPEG_OK else { return }
        throw decodeError(status, message: String(cString: cjpeg_decoder_message(decoder)))
    }

    /// The decode error for a failed status.
    static func decodeError(_ status: cjpeg_status, message: String) -> DarkroomError {
        let detail = cleaned(message)
        switch status {
        case CJPEG_TRUNCATED: return .truncated(.jpeg, detail: detail)
        case CJPEG_CORRUPT: return .corrupt(.jpeg, detail: detail)
        case CJPEG_UNSUPPORTED: return .unsupportedFormat(.jpeg, reason: detail)
        default: return .decodeFailed(.jpeg, detail: "libjpeg-turbo: \(detail)")
        }
    }

    /// libjpeg's message without a redundant "Corrupt JPEG data: " prefix (the error says so).
    private static func cleaned(_ message: String) -> String {
        let prefix = "Corrupt JPEG data: "
        let text = message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        return text.isEmpty ? "libjpeg-turbo failed without a message" : text
    }
}
