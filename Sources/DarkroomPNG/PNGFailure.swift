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

    /// The C wall's level for `failOn`.
    static func failOn(_ failOn: FailOn) -> cpng_fail_on {
        switch failOn {
        case .none: CPNG_FAIL_ON_NONE
        case .truncated: CPNG_FAIL_ON_TRUNCATED
        case .error: CPNG_FAIL_ON_ERROR
        case .warning: CPNG_FAIL_ON_WARNING
        }
    }

    /// Sends the damage the decode went past (if any) to `options.warnings`; whether there was
    /// any.
    static func reportDamage(of decoder: OpaquePointer, to options: DecodeOptions) -> Bool {
        var message: UnsafePointer<CChar>?
        let damage: DecodeDamage
        switch cpng_decoder_damage(decoder, &message) {
        case CPNG_DAMAGE_TRUNCATED: damage = .truncated
        case CPNG_DAMAGE_ERROR: damage = .error
        case CPNG_DAMAGE_WARNING: damage = .warning
        default: return false
        }
        let detail = message.map { String(cString: $0) } ?? ""
        options.warnings?(DecodeWarning(format: .png, damage: damage, detail: detail.isEmpty ? "libpng gave no message" : detail))
        return true
    }
}
