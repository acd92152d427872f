// MARK: - DecodeLimits

/// Limits checked **before** any pixel memory is allocated.
///
/// ```swift
/// var limits = DecodeLimits()
/// limits.maxPixels = 24_000_000
/// try limits.check(header, byteCount: bytes.count) // throws .tooManyPixels for a 40000×40000 header
/// ```
public struct DecodeLimits: Sendable, Hashable {
    /// Default maximum input size: 100 MiB.
    public static let defaultMaxInputBytes = 100 * 1024 * 1024
    /// Default maximum pixel count: 100 megapixels.
    public static let defaultMaxPixels = 100_000_000

    /// Inputs longer than this are refused without being parsed.
    public var maxInputBytes: Int
    /// Images whose header claims more pixels than this are refused without being decoded.
    public var maxPixels: Int

    /// Builds limits of `maxInputBytes` input bytes and `maxPixels` pixels (width × height); the
    /// defaults are ``defaultMaxInputBytes`` (100 MiB) and ``defaultMaxPixels`` (100 megapixels).
    public init(maxInputBytes: Int = defaultMaxInputBytes, maxPixels: Int = defaultMaxPixels) {
        self.maxInputBytes = maxInputBytes
        self.maxPixels = maxPixels
    }

    /// Throws when the input length alone passes the limit.
    public func check(byteCount: Int) throws {
        if byteCount == 0 { throw DarkroomError.emptyInput }
        if byteCount > maxInputBytes {
            throw DarkroomError.inputTooLarge(byteCount: byteCount, limit: maxInputBytes)
        }
    }

    /// Throws when the header's size is invalid or passes ``maxPixels``, or its coded frame
    /// (``ImageHeader/codedSize``) does.
    public func check(_ header: ImageHeader) throws {
        guard header.width > 0, header.height > 0 else {
            throw DarkroomError.invalidDimensions(header.format, width: header.width, height: header.height)
        }
        func exceeds(_ size: PixelSize) -> Bool {
            let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
            return overflow || pixels > maxPixels
        }
        if exceeds(header.size) {
            throw DarkroomError.tooManyPixels(width: header.width, height: header.height, limit: maxPixels)
        }
        if let frame = header.codedSize, exceeds(frame) {
            // The image's own size is within the limit: say what is not.
            throw DarkroomError.frameTooLarge(header.format, width: header.width, height: header.height, frame: frame, limit: maxPixels)
        }
    }
}
