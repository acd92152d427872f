// MARK: - DarkroomError

/// Every error Darkroom's own components throw.
///
/// Each message names what was wrong — the format, the limit, the value —
/// so that `darkroom: error: INPUT: <message>` is enough to act on.
///
/// ```swift
/// do { _ = try ImageProbe.probe(bytes) }
/// catch let error as DarkroomError { print(error) } // "empty input: no bytes to decode"
/// ```
public enum DarkroomError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The input had no bytes at all.
    case emptyInput
    /// The input is larger than the configured maximum.
    case inputTooLarge(byteCount: Int, limit: Int)
    /// The bytes match no known image signature; `hint` describes what they look like.
    case unrecognizedFormat(hint: String)
    /// The format is known but this build cannot read or write it.
    case unsupportedFormat(ImageFormat, reason: String)
    /// The data ends before the header or the pixel data is complete.
    case truncated(ImageFormat, detail: String)
    /// The data is structurally invalid.
    case corrupt(ImageFormat, detail: String)
    /// The header claims more pixels than the limit allows (checked before allocating).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The image is within the limit but decoding it means decoding a larger frame that is not
    /// (a TIFF tile larger than the image, an AVIF/HEIF frame larger than its `ispe`); `width`
    /// and `height` are the image's, `frame` what the decoder would allocate.
    case frameTooLarge(ImageFormat, width: Int, height: Int, frame: PixelSize, limit: Int)
    /// An animation with more frames than the limit allows (`frames > maxFrames`), or whose
    /// frames hold more pixels in all than the pixel limit (`frames × frame size > maxPixels`).
    case tooManyFrames(ImageFormat, frames: Int, frameSize: PixelSize, maxFrames: Int, maxPixels: Int)
    /// The header claims a zero or negative dimension.
    case invalidDimensions(ImageFormat, width: Int, height: Int)
    /// A codec library failed while decoding.
    case decodeFailed(ImageFormat, detail: String)
    /// A codec library failed while encoding.
    case encodeFailed(ImageFormat, detail: String)
    /// The output is larger than the format (or its encoder) can hold: `limit` is the largest
    /// width and height it writes. A property of the input and the variant, not a failure.
    case outputTooLarge(ImageFormat, width: Int, height: Int, limit: PixelSize)
    /// An option or argument was out of range or malformed.
    case invalidArgument(name: String, value: String, expected: String)
    /// A file could not be read or written.
    case io(path: String, detail: String)
    /// A network fetch failed: `status` is the HTTP status when the server answered with one,
    /// `reason` says what went wrong (`"HTTP 404 Not Found"`, `"timed out after 30 s"`, …) and
    /// `kind` classifies it for code (``FetchFailureKind``).
    case fetchFailed(url: String, status: Int?, reason: String, kind: FetchFailureKind = .other)
    /// No registered component could handle the request.
    case noComponent(kind: String, detail: String)
    /// The work was cancelled before it finished.
    case cancelled

    public var description: String {
        switch self {
        case .emptyInput:
            return "empty input: no bytes to decode"
        case let .inputTooLarge(byteCount, limit):
            return "input is \(byteCount) bytes, more than the limit of \(limit) bytes"
        case let .unrecognizedFormat(hint):
            return "unrecognised image format: \(hint)"
        case let .unsupportedFormat(format, reason):
            return "\(format.displayName) is not supported: \(reason)"
        case let .truncated(format, detail):
            return "truncated \(format.displayName) data: \(detail)"
        case let .corrupt(format, detail):
            return "corrupt \(format.displayName) data: \(detail)"
        case let .tooManyPixels(width, height, limit):
            return "image is " + Self.tooManyPixelsText(width: width, height: height, limit: limit)
        case let .frameTooLarge(format, width, height, frame, limit):
            let what = format == .tiff ? "a tile of" : "a coded frame of"
            let pixels = Self.tooManyPixelsText(width: frame.width, height: frame.height, limit: limit)
            return "\(format.displayName) image is \(width)×\(height) but decoding it means \(what) \(pixels)"
        case let .tooManyFrames(format, frames, size, maxFrames, maxPixels):
            if frames > maxFrames {
                return "\(format.displayName) animation has \(frames) frames, more than the limit of \(maxFrames) (max-frames)"
            }
            return "\(format.displayName) animation has \(frames) frames of \(size.width)×\(size.height), "
                + "\(frames * size.width * size.height) pixels in all, more than the limit of \(maxPixels) (max-pixels)"
        case let .invalidDimensions(format, width, height):
            return "\(format.displayName) header gives an invalid size \(width)×\(height)"
        case let .decodeFailed(format, detail):
            return "cannot decode \(format.displayName): \(detail)"
        case let .outputTooLarge(format, width, height, limit):
            return "cannot encode \(format.displayName): \(width)×\(height) is larger than \(format.displayName) allows (\(limit.width)×\(limit.height))"
        case let .encodeFailed(format, detail):
            return "cannot encode \(format.displayName): \(detail)"
        case let .invalidArgument(name, value, expected):
            return "invalid \(name) '\(value)': expected \(expected)"
        case let .io(path, detail):
            return "\(path): \(detail)"
        case let .fetchFailed(_, _, reason, _):
            return reason
        case let .noComponent(kind, detail):
            return "no \(kind) for \(detail)"
        case .cancelled:
            return "cancelled"
        }
    }

    /// "W×H (N megapixels), more than the limit of L megapixels". A limit under 0.1
    /// megapixels would round to "0 megapixels", and two sizes may round to the same text:
    /// then both are given in pixels.
    private static func tooManyPixelsText(width: Int, height: Int, limit: Int) -> String {
        let imageMP = short(Double(width) * Double(height) / 1_000_000)
        let limitMP = short(Double(limit) / 1_000_000)
        if limit < 100_000 || imageMP == limitMP {
            let pixels = width.multipliedReportingOverflow(by: height)
            let imageText = pixels.overflow ? "\(imageMP) megapixels" : "\(pixels.partialValue) pixels"
            return "\(width)×\(height) (\(imageText)), more than the limit of \(limit) pixel\(limit == 1 ? "" : "s")"
        }
        return "\(width)×\(height) (\(imageMP) megapixels), more than the limit of \(limitMP) megapixels"
    }

    private static func short(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
