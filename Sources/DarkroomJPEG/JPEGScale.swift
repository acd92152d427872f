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
    /// at that scale, or `nil` at full size (see `ImageDecoder/canonicalSizeHint(for:options:)`).
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

    /// The stored size at the DCT scale ``scaleDenominator(for:sizeHint:)`` picks.
    public func decodedSize(for header: ImageHeader, options: DecodeOptions) -> PixelSize {
        Self.scaledSize(of: header.size, denominator: Self.scaleDenominator(for: header, sizeHint: options.sizeHint))
    }

    // MARK: - Cost

    /// libjpeg-turbo's decode cost, calibrated on the benchmark corpus (`Benchmarks/peers.sh`
    /// T1, thread CPU time per file):
    /// - a baseline JPEG costs about 9.5 µs per KB of entropy-coded data plus 17 ns per 8×8
    ///   block (so 4:4:4 colour costs more than 4:2:0 at the same size), at any DCT scale;
    /// - a progressive JPEG decoded at 1/8 reads only its DC scans: about 0.4 µs per KB
    ///   (skimming the rest of the file) plus 16 ns per block;
    /// - one decoded at a larger scale costs about 3.2 times the bytes of a baseline file.
    public func estimatedDecodeCost(for header: ImageHeader, byteCount: Int, options: DecodeOptions) -> Double {
        let kilobytes = Double(byteCount) / 1_000
        // 4:2:2 when the header does not say: between the common 4:2:0 and 4:4:4.
        let blocks = Double(header.width) * Double(header.height) * (header.codedSamplesPerPixel ?? 2) / 64
        guard header.isProgressive else { return 9.5 * kilobytes + 0.017 * blocks }
        if Self.scaleDenominator(for: header, sizeHint: options.sizeHint) == 8 {
            return 0.4 * kilobytes + 0.016 * blocks
        }
        return 3.2 * 9.5 * kilobytes + 0.017 * blocks
    }
}
