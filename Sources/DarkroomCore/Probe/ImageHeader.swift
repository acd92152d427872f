// MARK: - ImageHeader

/// What a header probe learns without decoding pixels.
///
/// `width` and `height` are the **stored** size, before `orientation` is applied;
/// ``uprightSize`` is the size a decoder that applies the orientation returns.
///
/// ```swift
/// let header = try ImageProbe.probe(bytes)
/// print(header.format, header.width, header.height, header.orientation)
/// ```
public struct ImageHeader: Sendable, Hashable {
    /// The format detected from the bytes.
    public var format: ImageFormat
    /// The stored width in pixels, before ``orientation`` is applied.
    public var width: Int
    /// The stored height in pixels, before ``orientation`` is applied.
    public var height: Int
    /// EXIF orientation; `.up` when the file has none.
    public var orientation: Orientation
    /// Whether the format/header says pixels may be translucent (`nil` when unknown).
    public var hasAlpha: Bool?
    /// JPEG only: progressive (multi-scan) coding.
    public var isProgressive: Bool
    /// Number of frames when the header says (animated GIF/WebP); `nil` when unknown.
    public var frameCount: Int?
    /// JPEG only: component samples coded per pixel, from the frame's sampling factors:
    /// 3 for 4:4:4 colour, 2 for 4:2:2, 1.5 for 4:2:0, 1 for greyscale. Decoding work grows
    /// with it (it is the number of 8×8 blocks per 64 pixels). `nil` when unknown.
    public var codedSamplesPerPixel: Double?
    /// AVIF, HEIF and tiled TIFF: the size of the frame the codec decodes before cropping it
    /// to `width`×`height` (AV1's maximum frame size, HEVC's coded picture size, a TIFF tile
    /// larger than the image); `nil` when unknown or no larger. ``DecodeLimits`` checks it
    /// too, so a small `ispe` or image size cannot hide a huge frame.
    public var codedSize: PixelSize?
    /// TIFF only: the reduced-resolution copies of the first page the file holds (pyramid
    /// levels: later directories marked NewSubfileType 1 with the first page's proportions),
    /// largest first. A decoder may read one of these instead when a size hint allows.
    public var reducedResolutions: [ReducedResolution] = []

    /// Builds a header from what a probe read; what it did not learn keeps the defaults: upright,
    /// alpha and frame count unknown, not progressive, and no ``codedSize`` (set it afterwards).
    public init(
        format: ImageFormat, width: Int, height: Int, orientation: Orientation = .up,
        hasAlpha: Bool? = nil, isProgressive: Bool = false, frameCount: Int? = nil,
        codedSamplesPerPixel: Double? = nil
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.isProgressive = isProgressive
        self.frameCount = frameCount
        self.codedSamplesPerPixel = codedSamplesPerPixel
    }

    /// The stored size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The size after applying ``orientation``.
    public var uprightSize: PixelSize { orientation.uprightSize(ofStored: size) }
}

// MARK: - ReducedResolution

/// A reduced-resolution copy of an image stored in the same file (a TIFF pyramid level): the
/// page (directory) that holds it and its stored size.
///
/// ```swift
/// let levels = try ImageProbe.probe(pyramid).reducedResolutions   // [page 1: 2048x1536, page 2: 1024x768, …]
/// ```
public struct ReducedResolution: Sendable, Hashable {
    /// The page (directory index, 0 being the first) that holds this copy.
    public var page: Int
    /// Its stored size.
    public var size: PixelSize

    /// A copy at `size` in `page`.
    public init(page: Int, size: PixelSize) {
        self.page = page
        self.size = size
    }
}
