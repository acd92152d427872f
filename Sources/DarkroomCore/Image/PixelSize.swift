// MARK: - PixelSize

/// A width and height in pixels.
///
/// ```swift
/// let fitted = PixelSize(width: 4000, height: 3000).fitting(within: PixelSize(width: 256, height: 256))
/// // 256×192
/// ```
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// Builds a size of `width` × `height` pixels; the values are not checked.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `width × height`, computed without overflow for any `Int` pair that fits in 64 bits.
    public var pixelCount: Int { width.multipliedReportingOverflow(by: height).partialValue }

    /// The size with width and height swapped.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    public var description: String { "\(width)x\(height)" }

    /// The largest size with this aspect ratio that fits inside `box` (never below 1×1).
    /// Upscales when `self` is smaller than `box`; use ``fitting(within:allowUpscaling:)`` to avoid it.
    public func fitting(within box: PixelSize, allowUpscaling: Bool = true) -> PixelSize {
        guard width > 0, height > 0 else { return self }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        if !allowUpscaling && scale >= 1 { return self }
        return PixelSize(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded()))
        )
    }

    /// The smallest size with this aspect ratio that covers `box` (for aspect-fill).
    public func filling(_ box: PixelSize) -> PixelSize {
        guard width > 0, height > 0 else { return self }
        let scale = max(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return PixelSize(
            width: max(box.width, Int((Double(width) * scale).rounded())),
            height: max(box.height, Int((Double(height) * scale).rounded()))
        )
    }

    /// Parses `"WxH"` (also `"W×H"`), e.g. `"256x256"`.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else {
            return nil
        }
        self.init(width: w, height: h)
    }

    /// Parses a bounding box as vips' `--size` does: `"WxH"`, `"N"` (N×N), `"Wx"` (only the
    /// width bounded) or `"xH"` (only the height); a side left out is `Int.max`, so
    /// ``fitting(within:allowUpscaling:)`` is bounded by the other.
    ///
    /// ```swift
    /// PixelSize(parsingBound: "256")   // 256x256
    /// PixelSize(parsingBound: "x256")  // Int.max x 256
    /// PixelSize(parsingBound: "0x256") // nil: sides are positive
    /// ```
    public init?(parsingBound text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "×", omittingEmptySubsequences: false) }
        func side(_ part: Substring) -> Int?? {
            if part.isEmpty { return .some(nil) }
            guard let value = Int(part), value > 0 else { return nil }
            return .some(value)
        }
        switch parts.count {
        case 1:
            guard let n = side(parts[0]), let n else { return nil }
            self.init(width: n, height: n)
        case 2:
            guard let w = side(parts[0]), let h = side(parts[1]), w != nil || h != nil else { return nil }
            self.init(width: w ?? Int.max, height: h ?? Int.max)
        default:
            return nil
        }
    }
}
