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

    /// The C wall's level for `failOn`.
    static func failOn(_ failOn: FailOn) -> cjpeg_fail_on {
        switch failOn {
        case .none: CJPEG_FAIL_ON_NONE
        case .truncated: CJPEG_FAIL_ON_TRUNCATED
        case .error: CJPEG_FAIL_ON_ERROR
        case .warning: CJPEG_FAIL_ON_WARNING
        }
    }

    /// Sends the damage the decode went past (if any) to `options.warnings`.
    static func reportDamage(of decoder: OpaquePointer, to options: DecodeOptions) {
        var message: UnsafePointer<CChar>?
        let damage: DecodeDamage
        switch cjpeg_decoder_damage(decoder, &message) {
        case CJPEG_DAMAGE_TRUNCATED: damage = .truncated
        case CJPEG_DAMAGE_ERROR: damage = .error
        case CJPEG_DAMAGE_WARNING: damage = .warning
        default: return
        }
        let detail = cleaned(message.map { String(cString: $0) } ?? "")
        options.warnings?(DecodeWarning(format: .jpeg, damage: damage, detail: detail))
    }

    /// libjpeg's message without a redundant "Corrupt JPEG data: " prefix (the error says so).
    private static func cleaned(_ message: String) -> String {
        let prefix = "Corrupt JPEG data: "
        let text = message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        return text.isEmpty ? "libjpeg-turbo failed without a message" : text
    }
}
