// MARK: - Flattening alpha

extension Image {
    /// The image composited over an opaque `background` (white by default), with
    /// `hasAlpha == false`. Formats without alpha (JPEG, BMP) encode this.
    /// Returns `self` when the image has no alpha.
    ///
    /// ```swift
    /// let opaque = translucent.flattened(over: RGBA(r: 255, g: 255, b: 255))
    /// ```
    public func flattened(over background: RGBA = RGBA(r: 255, g: 255, b: 255)) -> Image {
        guard hasAlpha else { return self }
        let br = Int(background.r), bg = Int(background.g), bb = Int(background.b)
        return pixels.withUnsafeBufferPointer { src in
            Image(width: width, height: height, hasAlpha: false) { dst in
                var i = 0
                while i < src.count {
                    let a = Int(src[i + 3]), ia = 255 - a
                    // Rounded (c·a + bg·(255−a)) / 255.
                    dst[i] = UInt8((Int(src[i]) * a + br * ia + 127) / 255)
                    dst[i + 1] = UInt8((Int(src[i + 1]) * a + bg * ia + 127) / 255)
                    dst[i + 2] = UInt8((Int(src[i + 2]) * a + bb * ia + 127) / 255)
                    dst[i + 3] = 255
                    i += 4
                }
            }
        }
    }
}
