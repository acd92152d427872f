// MARK: - Filtering every frame

extension ImageFilter {
    /// Applies the filter to each frame of `image` alone, keeping the animation's timing: what
    /// the render executors call, so a geometry, colour or overlay filter treats an animated
    /// GIF or WebP as it treats a still image, frame by frame. A still image is filtered once,
    /// exactly as ``apply(to:)`` does.
    ///
    /// ```swift
    /// let thumbnails = try AspectFit(width: 240).applyToEveryFrame(of: animatedGIF)
    /// thumbnails.animation?.frameCount  // as many frames as the input
    /// ```
    /// - Throws: what ``apply(to:)`` throws for any frame, and
    ///   ``DarkroomError/invalidArgument(name:value:expected:)`` when the filter gives frames of
    ///   different sizes (an animation's frames share one canvas).
    public func applyToEveryFrame(of image: Image) throws -> Image {
        try image.mappingFrames { try apply(to: $0) }
    }

    /// ``applyToEveryFrame(of:)`` held to a configured pixel limit (``DecodeLimits/maxPixels``):
    /// an output whose size the filter predicts (``outputSize(forInputSize:)``) is refused
    /// before any pixel is made; one the pixels decide is refused when made, before a later
    /// filter or the encoder works on it. All frames of an animation count, as in decoding.
    ///
    /// ```swift
    /// try AspectFit(width: 9_166).applyToEveryFrame(of: thumbnail, maxPixels: 4_000_000)
    /// // throws: invalid aspect-fit output '9166×6111 (56 megapixels)': expected at most 4 megapixels (max-pixels)
    /// ```
    /// - Throws: what ``applyToEveryFrame(of:)`` throws, and
    ///   ``DarkroomError/invalidArgument(name:value:expected:)`` naming the filter when its
    ///   output holds more than `maxPixels` pixels.
    public func applyToEveryFrame(of image: Image, maxPixels: Int) throws -> Image {
        if let predicted = outputSize(forInputSize: image.size) {
            try FilterOutputLimit.check(predicted, frames: image.frameCount, filter: outputLimitName, maxPixels: maxPixels)
        }
        let output = try applyToEveryFrame(of: image)
        try FilterOutputLimit.check(output.size, frames: output.frameCount, filter: outputLimitName, maxPixels: maxPixels)
        return output
    }

    /// The filter's name as errors give it: its identifier up to the arguments.
    var outputLimitName: String {
        let identifier = identifier
        return identifier.firstIndex(of: "(").map { String(identifier[..<$0]) } ?? identifier
    }
}
