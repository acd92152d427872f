// MARK: - TIFFLayout

/// How a TIFF file's first image stores its pixels, from its first image directory: what a
/// decoder working through libtiff's RGBA interface needs to know to read the result right.
///
/// ```swift
/// if let layout = TIFFLayout(bytes), layout.isBilevelMinIsBlack { /* … */ }
/// ```
public struct TIFFLayout: Sendable, Hashable {
    /// PhotometricInterpretation: 0 min-is-white, 1 min-is-black, 2 RGB, 3 palette, 5 CMYK, 6 YCbCr…
    public var photometric: Int?
    /// The first BitsPerSample value (1 for bilevel; the tag defaults to 1 when absent).
    public var bitsPerSample: Int?
    /// SamplesPerPixel (default 1).
    public var samplesPerPixel: Int?
    /// The first ExtraSamples value: 0 unspecified, 1 associated (premultiplied) alpha, 2 unassociated.
    public var extraSample: Int?
    /// TileWidth × TileLength for a tiled file.
    public var tileSize: PixelSize?

    /// The layout of `bytes`' first image directory; `nil` when it is not a readable TIFF.
    public init?(_ bytes: [UInt8]) {
        guard let fields = bytes.withUnsafeBytes({ TIFFStructure.readIFD0($0) }) else { return nil }
        self.init(fields)
    }

    init(_ fields: TIFFStructure.Fields) {
        photometric = fields.photometric
        bitsPerSample = fields.bitsPerSample
        samplesPerPixel = fields.samplesPerPixel
        extraSample = fields.extraSample
        if let w = fields.tileWidth, let h = fields.tileLength { tileSize = PixelSize(width: w, height: h) }
    }

    /// Black-and-white stored with 1 as white (PhotometricInterpretation 1, one bit per sample).
    public var isBilevelMinIsBlack: Bool { photometric == 1 && (bitsPerSample ?? 1) == 1 }

    /// Greyscale (PhotometricInterpretation 0 or 1) with an alpha sample.
    public var isGreyWithAlpha: Bool { (photometric == 0 || photometric == 1) && (samplesPerPixel ?? 1) >= 2 }
}
