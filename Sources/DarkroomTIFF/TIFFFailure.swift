import CTIFF
import DarkroomCore

// MARK: - TIFFFailure

/// Turns a failed CTIFF status and libtiff's message into a ``DarkroomError``, and the damage a
/// decode went past into a `DecodeWarning`.
enum TIFFFailure {
    static func error(_ status: ctiff_status, decoder: OpaquePointer, page: Int, limit: Int) -> DarkroomError {
        let message = String(cString: ctiff_decoder_message(decoder))
        let detail = message.isEmpty ? "libtiff failed without a message" : message
        switch status {
        case CTIFF_UNSUPPORTED: return .unsupportedFormat(.tiff, reason: detail)
        case CTIFF_TRUNCATED: return .truncated(.tiff, detail: detail)
        case CTIFF_CORRUPT: return .corrupt(.tiff, detail: detail)
        case CTIFF_OUT_OF_MEMORY: return .decodeFailed(.tiff, detail: "out of memory (\(detail))")
        case CTIFF_NO_SUCH_PAGE: return .invalidArgument(name: "page", value: String(page), expected: "an existing page (\(detail))")
        default: return .decodeFailed(.tiff, detail: detail)
        }
    }

    /// The C wall's level for `failOn`.
    static func failOn(_ failOn: FailOn) -> ctiff_fail_on {
        switch failOn {
        case .none: CTIFF_FAIL_ON_NONE
        case .truncated: CTIFF_FAIL_ON_TRUNCATED
        case .error: CTIFF_FAIL_ON_ERROR
        case .warning: CTIFF_FAIL_ON_WARNING
        }
    }

    /// Sends the damage the decode went past (if any) to `options.warnings`; whether there was any.
    static func reportDamage(of decoder: OpaquePointer, to options: DecodeOptions) -> Bool {
        var message: UnsafePointer<CChar>?
        let damage: DecodeDamage
        switch ctiff_decoder_damage(decoder, &message) {
        case CTIFF_DAMAGE_TRUNCATED: damage = .truncated
        case CTIFF_DAMAGE_ERROR: damage = .error
        case CTIFF_DAMAGE_WARNING: damage = .warning
        default: return false
        }
        let detail = message.map { String(cString: $0) } ?? ""
        options.warnings?(DecodeWarning(format: .tiff, damage: damage, detail: detail.isEmpty ? "libtiff gave no message" : detail))
        return true
    }
}
