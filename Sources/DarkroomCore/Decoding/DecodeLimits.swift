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
    /// Default maximum number of an animation's frames: 1,000.
    public static let defaultMaxFrames = 1_000

    /// Inputs longer than this are refused without being parsed.
    public var maxInputBytes: Int
    /// Images whose header claims more pixels than this are refused without being decoded; an
    /// animation counts the pixels of all its frames.
    public var maxPixels: Int
    /// Animations with more frames than this are refused (imgproxy's `max_animation_frames`).
    public var maxFrames: Int = defaultMaxFrames

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
    /// (``ImageHeader/codedSize``) does. Animation frames are checked by the decoders that
    /// keep them (``check(frames:of:format:)``), since a header may not count them.
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

    /// Throws when an animation of `frames` frames of `size` has more frames than
    /// ``maxFrames``, or more pixels in all than ``maxPixels``.
    ///
    /// ```swift
    /// try DecodeLimits().check(frames: 24, of: PixelSize(width: 480, height: 270), format: .gif)  // fine
    /// ```
    /// - Throws: ``DarkroomError/tooManyFrames(_:frames:frameSize:maxFrames:maxPixels:)``.
    public func check(frames: Int, of size: PixelSize, format: ImageFormat) throws {
        let (framePixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        let (total, overflowAll) = framePixels.multipliedReportingOverflow(by: max(1, frames))
        guard frames > maxFrames || overflow || overflowAll || total > maxPixels else { return }
        throw DarkroomError.tooManyFrames(format, frames: frames, frameSize: size, maxFrames: maxFrames, maxPixels: maxPixels)
    }
}
