// MARK: - AnimationFlattening

/// An animated image written as its first frame, because the output format (or its encoder)
/// cannot animate: what a render reports, so the CLI can warn and the server can say so in a
/// response header (`X-Darkroom-Animation: first-frame`), instead of flattening silently. Cache
/// layers that keep ``CachedImage/flattenedFrames`` (memory, disk) report it again on a hit.
///
/// ```swift
/// if let flattened = AnimationFlattening(image: animatedGIF, encoder: jpegEncoder) {
///     print("warning: \(flattened)")  // "24 frames; JPEG cannot animate, so the first frame was written"
/// }
/// ```
public struct AnimationFlattening: Sendable, Hashable, CustomStringConvertible {
    /// The number of frames the image had.
    public var frameCount: Int
    /// The format that was written.
    public var format: ImageFormat

    /// The flattening `encoder` does to `image`; `nil` when the image is still or the encoder
    /// writes animations.
    public init?(image: Image, encoder: any ImageEncoder) {
        guard image.frameCount > 1, !encoder.writesAnimation else { return nil }
        frameCount = image.frameCount
        format = encoder.format
    }

    /// A flattening of `frameCount` frames into `format`.
    public init(frameCount: Int, format: ImageFormat) {
        self.frameCount = frameCount
        self.format = format
    }

    /// E.g. "24 frames; JPEG cannot animate, so the first frame was written".
    public var description: String {
        "\(frameCount) frames; \(format.displayName) cannot animate, so the first frame was written"
    }
}
