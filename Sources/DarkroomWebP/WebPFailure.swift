import CWebP
import DarkroomCore

// MARK: - WebPFailure

/// Turns libwebp's status codes into ``DarkroomError``s.
enum WebPFailure {
    /// The error for a failed `WebPGetFeatures`/`WebPDecode`.
    static func decodeError(_ status: VP8StatusCode, while action: String) -> DarkroomError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA, VP8_STATUS_SUSPENDED:
            return .truncated(.webp, detail: "the data ends before \(action) is complete")
        case VP8_STATUS_BITSTREAM_ERROR:
            return .corrupt(.webp, detail: "libwebp found a bitstream error while \(action)")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            return .unsupportedFormat(.webp, reason: "libwebp does not support a feature the file uses (\(action))")
        case VP8_STATUS_OUT_OF_MEMORY:
            return .decodeFailed(.webp, detail: "out of memory while \(action)")
        case VP8_STATUS_INVALID_PARAM:
            return .decodeFailed(.webp, detail: "libwebp rejected the decoding parameters while \(action)")
        default:
            return .decodeFailed(.webp, detail: "libwebp status \(status.rawValue) while \(action)")
        }
    }

    /// The error for a failed `WebPEncode`.
    static func encodeError(_ code: WebPEncodingError) -> DarkroomError {
        let detail: String
        switch code {
        case VP8_ENC_ERROR_OUT_OF_MEMORY: detail = "out of memory"
        case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: detail = "out of memory for the bitstream"
        case VP8_ENC_ERROR_NULL_PARAMETER: detail = "a required parameter was missing"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: detail = "invalid configuration"
        case VP8_ENC_ERROR_BAD_DIMENSION: detail = "the picture size is invalid (WebP allows at most 16383×16383)"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW: detail = "partition 0 is too big (more than 512 KiB)"
        case VP8_ENC_ERROR_PARTITION_OVERFLOW: detail = "a partition is too big (more than 16 MiB)"
        case VP8_ENC_ERROR_BAD_WRITE: detail = "writing the output failed"
        case VP8_ENC_ERROR_FILE_TOO_BIG: detail = "the file would be larger than 4 GiB"
        case VP8_ENC_ERROR_USER_ABORT: detail = "aborted"
        default: detail = "libwebp error \(code.rawValue)"
        }
        return .encodeFailed(.webp, detail: detail)
    }
}
