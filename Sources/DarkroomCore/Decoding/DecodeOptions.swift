// MARK: - DecodeOptions

/// How to decode: the size the caller needs, whether to apply EXIF orientation, and limits.
///
/// ```swift
/// let options = DecodeOptions(sizeHint: PixelSize(width: 256, height: 256))
/// let thumbSource = try decoder.decode(bytes, header: header, options: options)
/// ```
public struct DecodeOptions: Sendable, Hashable {
    /// The smallest **upright** size the caller will use. A decoder that can shrink on
    /// load (JPEG DCT scaling) decodes at the smallest scale whose upright result is
    /// still at least this large in both dimensions. `nil` means full size.
    public var sizeHint: PixelSize?
    /// Apply the EXIF orientation so pixels come out upright (default `true`).
    public var appliesOrientation: Bool
    /// Input and pixel limits.
    public var limits: DecodeLimits

    public init(sizeHint: PixelSize? = nil, appliesOrientation: Bool = true, limits: DecodeLimits = DecodeLimits()) {
        self.sizeHint = sizeHint
        self.appliesOrientation = appliesOrientation
        self.limits = limits
    }
}

// MARK: - The decoder contract's shared steps

extension DecodeOptions {
    /// Checks the input length and the header's size against ``limits`` — what every decoder
    /// does before allocating pixels.
    public func checkLimits(byteCount: Int, header: ImageHeader) throws {
        try limits.check(byteCount: byteCount)
        try limits.check(header)
    }

    /// The stored pixels turned upright by `header.orientation`, or unchanged when
    /// ``appliesOrientation`` is `false`.
    public func orient(_ stored: Image, header: ImageHeader) -> Image {
        appliesOrientation ? stored.applying(header.orientation) : stored
    }
}

