// MARK: - ImageEncoder

/// Turns an ``Image`` into bytes of one format.
///
/// Contract:
/// - `options.format` equals the encoder's ``format``; options that do not apply to the
///   format are ignored; out-of-range values are errors (``EncodeOptions/validate()``).
/// - Formats without alpha (JPEG, BMP) composite translucent pixels over white.
/// - **Threading.** Stateless; may run on many threads at once. Synchronous CPU work.
/// - **Errors.** Throws ``DarkroomError/encodeFailed(_:detail:)`` naming the format.
/// - **Size.** ``maximumSize`` is the largest picture the format (or the library writing it)
///   holds, so a render can be refused before its source is decoded
///   (``checkWritable(_:)``); `nil` when no side limit applies below the pixel limits.
/// - **Animation.** An encoder with ``writesAnimation`` writes every frame of an animated
///   image (``Image/animation``) with its timing and loop count; any other writes the first
///   frame, and the render reports that it did (``AnimationFlattening``).
///
/// ```swift
/// let jpeg = try encoder.encode(image, options: EncodeOptions(format: .jpeg, quality: 80))
/// ```
public protocol ImageEncoder: Sendable {
    /// A short name for logs, e.g. `"libgd"`.
    var name: String { get }
    /// The format this encoder writes.
    var format: ImageFormat { get }

    /// Encodes `image` with `options` (whose `format` is this encoder's ``format``) and returns
    /// the file's bytes; throws for out-of-range options or when the encode fails.
    func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8]

    /// Encodes as ``encode(_:options:)`` and embeds `metadata` (EXIF, XMP, ICC profile) in the
    /// file when the format holds it. The default drops it: GIF, BMP and a user's encoder write
    /// the pixels alone. Renders call this only when `options.keepsMetadata` is set.
    ///
    /// ```swift
    /// let jpeg = try JPEGEncoder().encode(image, options: options, metadata: ImageMetadata(exif: exif))
    /// ```
    func encode(_ image: Image, options: EncodeOptions, metadata: ImageMetadata) throws -> [UInt8]

    /// Whether ``encode(_:options:metadata:)`` embeds metadata (default `false`).
    var writesMetadata: Bool { get }

    /// The largest width and height this encoder writes; `nil` for no limit of its own.
    var maximumSize: PixelSize? { get }

    /// Whether ``encode(_:options:)`` writes every frame of an animated image (default
    /// `false`: the first frame only).
    var writesAnimation: Bool { get }
}

extension ImageEncoder {
    public var maximumSize: PixelSize? { nil }

    public func encode(_ image: Image, options: EncodeOptions, metadata: ImageMetadata) throws -> [UInt8] {
        try encode(image, options: options)
    }

    public var writesMetadata: Bool { false }

    public var writesAnimation: Bool { false }

    /// Throws when a picture of `size` is larger than this encoder writes.
    ///
    /// ```swift
    /// try GDEncoder(format: .gif).checkWritable(PixelSize(width: 1, height: 2_000_000))
    /// // throws: cannot encode GIF: 1×2000000 is larger than GIF allows (65535×65535)
    /// ```
    /// - Throws: ``DarkroomError/outputTooLarge(_:width:height:limit:)``.
    public func checkWritable(_ size: PixelSize) throws {
        guard let limit = maximumSize, size.width > limit.width || size.height > limit.height else { return }
        throw DarkroomError.outputTooLarge(format, width: size.width, height: size.height, limit: limit)
    }
}
