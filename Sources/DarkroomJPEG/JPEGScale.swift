import DarkroomCore

// MARK: - Choosing a DCT scale (shrink-on-load)

extension JPEGDecoder {
    /// The DCT scale denominators libjpeg-turbo decodes fastest, smallest output first.
    public static let scaleDenominators = [8, 4, 2, 1]

    /// The denominator `d` of the DCT scale 1/d (8, 4, 2 or 1) that ``decode(_:header:options:)``
    /// uses: the smallest scale whose **upright** output is still at least `sizeHint` in both
    /// dimensions. `nil` means full size (1).
    ///
    /// ```swift
    /// let header = ImageHeader(format: .jpeg, width: 1600, height: 1200)
    /// JPEGDecoder.scaleDenominator(for: header, sizeHint: PixelSize(width: 200, height: 150)) // 8
    /// JPEGDecoder.scaleDenominator(for: header, sizeHint: PixelSize(width: 201, height: 150)) // 4
    /// ```
    public static func scaleDenominator(for header: ImageHeader, sizeHint: PixelSize?) -> Int {
        guard let sizeHint else { return 1 }
        let upright = header.uprightSize
        for denominator in scaleDenominators {
            let scaled = scaledSize(of: upright, denominator: denominator)
            if scaled.width >= sizeHint.width && scaled.height >= sizeHint.height { return denominator }
        }
        return 1
    }

    /// The hint naming the scale ``scaleDenominator(for:sizeHint:)`` picks: the upright size
    /// at that scale, or `nil` at full size (see ``ImageDecoder/canonicalSizeHint(for:options:)``).
    ///
    /// ```swift
    /// let header = ImageHeader(format: .jpeg, width: 1600, height: 1200)
    /// JPEGDecoder().canonicalSizeHint(for: header, options: DecodeOptions(sizeHint: PixelSize(width: 180, height: 100)))
    /// // 200x150
    /// ```
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? {
        let denominator = Self.scaleDenominator(for: header, sizeHint: options.sizeHint)
        return denominator == 1 ? nil : Self.scaledSize(of: header.uprightSize, denominator: denominator)
    }

    /// The size libjpeg produces at scale 1/`denominator`: each side rounded **up**,
    /// `ceil(side / denominator)`.
    ///
    /// ```swift
    /// JPEGDecoder.scaledSize(of: PixelSize(width: 1601, height: 1200), denominator: 8) // 201x150
    /// ```
    public static func scaledSize(of size: PixelSize, denominator: Int) -> PixelSize {
        PixelSize(
            width: (size.width + denominator - 1) / denominator,
            height: (size.height + denominator - 1) / denominator)
    }
}
