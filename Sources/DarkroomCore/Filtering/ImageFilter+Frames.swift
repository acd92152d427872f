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
}
