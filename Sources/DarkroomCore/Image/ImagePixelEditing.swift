// MARK: - Editing pixels

/// Building a new image from this one's pixels: the few lines a filter's body needs.
///
/// Contract: the receiver is never changed (an ``Image`` is a value); the result has the same
/// size; its ``Image/hasAlpha`` is `true` when the receiver's was or when an edit left a pixel
/// translucent, so an opaque image stays opaque unless an edit makes it otherwise.
extension Image {
    /// A copy with every pixel replaced by `transform`'s answer for it (straight alpha).
    ///
    /// ```swift
    /// // Posterize to 4 levels a channel:
    /// let poster = photo.mappingPixels { p in
    ///     func level(_ v: UInt8) -> UInt8 { UInt8((Int(v) * 3 + 127) / 255 * 255 / 3) }
    ///     return RGBA(r: level(p.r), g: level(p.g), b: level(p.b), a: p.a)
    /// }
    /// ```
    public func mappingPixels(_ transform: (RGBA) throws -> RGBA) rethrows -> Image {
        try editingPixels { pixels in
            var i = 0
            while i < pixels.count {
                let mapped = try transform(RGBA(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3]))
                pixels[i] = mapped.r
                pixels[i + 1] = mapped.g
                pixels[i + 2] = mapped.b
                pixels[i + 3] = mapped.a
                i += Self.bytesPerPixel
            }
        }
    }

    /// A copy whose RGBA8 bytes (`width * height * 4`, row-major, straight alpha) `edit` may
    /// change in place: for filters that work on whole rows or neighbourhoods.
    ///
    /// ```swift
    /// let darker = photo.editingPixels { bytes in
    ///     for i in stride(from: 0, to: bytes.count, by: 4) { bytes[i] /= 2; bytes[i + 1] /= 2; bytes[i + 2] /= 2 }
    /// }
    /// ```
    public func editingPixels(_ edit: (inout UnsafeMutableBufferPointer<UInt8>) throws -> Void) rethrows -> Image {
        var edited = self
        edited.shrunkFrom = nil
        try edited.pixels.withUnsafeMutableBufferPointer { buffer in try edit(&buffer) }
        guard !hasAlpha else { return edited }
        // An opaque source: say "has alpha" only when an edit made a pixel translucent.
        return edited.withAlphaScanned()
    }
}
