// MARK: - ImageDecoder

/// Turns encoded bytes into an upright RGBA8 ``Image``.
///
/// Contract:
/// - **Selection.** The registry asks decoders in order; the first whose
///   ``canDecode(_:options:)`` returns `true` decodes. A decoder may decline any header.
/// - **Limits first.** Callers probe the header and check ``DecodeLimits`` before calling
///   ``decode(_:header:options:)``; decoders check again and must never allocate pixels
///   for an image over the limits.
/// - **Orientation.** When `options.appliesOrientation` is `true` the result is upright
///   (`header.orientation` applied); otherwise it is the stored pixels.
/// - **Size hint.** A decoder may return an image smaller than the stored size, but never
///   smaller than `options.sizeHint` in either upright dimension (unless the image itself is).
/// - **Errors.** Throws ``DarkroomError`` naming the format and what was wrong; never crashes
///   on malformed input.
/// - **Threading.** Decoders are stateless values: `decode` may run on many threads at once.
///   It is synchronous, CPU-bound work; it does not check for cancellation part-way.
///
/// ```swift
/// let header = try ImageProbe.probe(bytes)
/// if decoder.canDecode(header, options: options) {
///     let image = try decoder.decode(bytes, header: header, options: options)
/// }
/// ```
public protocol ImageDecoder: Sendable {
    /// A short name for logs and `darkroom list`, e.g. `"libgd"`.
    var name: String { get }

    /// Whether this decoder will take this input. Cheap; no decoding.
    func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool

    /// Decodes `bytes`, whose probed header is `header`.
    func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image

    /// `options.sizeHint` in canonical form: the hint naming the decode this decoder would do
    /// (for a decoder with a few fixed scales, the size of the scale it picks; `nil` for a
    /// full-size decode). Renderers decode with the canonical hint and share one decode among
    /// the variants whose canonical hints are equal, so a variant's pixels never depend on
    /// which other variants are rendered with it (its cache key promises they do not).
    ///
    /// Requirement: decoding with the canonical hint gives the same pixels as decoding with
    /// any hint that canonicalises to it. The default returns the hint unchanged (decodes are
    /// shared only among equal hints); a decoder that ignores hints should return `nil`.
    ///
    /// ```swift
    /// // A 1600×1200 JPEG, which decodes at 1/8 for any hint up to 200×150:
    /// JPEGDecoder().canonicalSizeHint(for: header, options: DecodeOptions(sizeHint: PixelSize(width: 180, height: 100)))
    /// // 200×150
    /// ```
    func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize?

    /// The stored (not yet oriented) size of the image ``decode(_:header:options:)`` returns
    /// for this header and options, worked out before decoding: what a memory budget counts.
    /// The default is the header's size (no shrink-on-load).
    ///
    /// ```swift
    /// JPEGDecoder().decodedSize(for: header, options: DecodeOptions(sizeHint: PixelSize(width: 200, height: 150)))
    /// // 200x150 for a 1600×1200 JPEG (DCT scale 1/8)
    /// ```
    func decodedSize(for header: ImageHeader, options: DecodeOptions) -> PixelSize

    /// A relative cost (roughly microseconds on one core) of decoding `byteCount` bytes with
    /// this header and options: what a batch orders its files by. The default is proportional
    /// to the bytes and the pixels; a decoder whose cost depends on more (a progressive JPEG
    /// read at 1/8 skips most of its scans) says so.
    func estimatedDecodeCost(for header: ImageHeader, byteCount: Int, options: DecodeOptions) -> Double

    /// The EXIF block, XMP packet and ICC profile `bytes` carries, as stored (what a render with
    /// `strip = false` copies into its output). The default reads the containers Swift reads
    /// (``ImageMetadata/init(reading:format:)``); a decoder whose format compresses a part (PNG's
    /// `iCCP`) adds it.
    ///
    /// ```swift
    /// let metadata = PNGDecoder().metadata(in: bytes, header: header)   // with the iCCP profile
    /// ```
    func metadata(in bytes: [UInt8], header: ImageHeader) -> ImageMetadata
}

extension ImageDecoder {
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? {
        options.sizeHint
    }

    public func decodedSize(for header: ImageHeader, options: DecodeOptions) -> PixelSize {
        header.size
    }

    public func estimatedDecodeCost(for header: ImageHeader, byteCount: Int, options: DecodeOptions) -> Double {
        11.5 * Double(byteCount) / 1_000 + 2 * Double(header.width) * Double(header.height) / 1_000
    }

    public func metadata(in bytes: [UInt8], header: ImageHeader) -> ImageMetadata {
        ImageMetadata(reading: bytes, format: header.format)
    }
}
