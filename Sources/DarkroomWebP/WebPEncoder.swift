import CWebP
import DarkroomCore

// MARK: - WebPEncoder

/// Encodes an `Image` as WebP with libwebp's advanced API, keeping all 8 bits of alpha.
///
/// - Lossy (default): `options.quality` 1…100 (default 80). Alpha, when the image has it,
///   is compressed losslessly beside the lossy colour.
/// - Lossless (`options.lossless`): pixels survive exactly, including the colour under fully
///   transparent pixels (`exact = 1`); quality is ignored.
/// - Opaque images (`hasAlpha == false`) are imported as RGBX, so no alpha plane is written.
/// - An animated image (`Image.animation`) is written animated, every frame with these
///   options, its delays and loop count.
///
/// ```swift
/// let lossy = try WebPEncoder().encode(image, options: EncodeOptions(format: .webp, quality: 75))
/// let exact = try WebPEncoder().encode(image, options: EncodeOptions(format: .webp, lossless: true))
/// ```
public struct WebPEncoder: ImageEncoder {
    public let name = "libwebp"
    public let format = ImageFormat.webp
    /// WebP's side limit: 16383 pixels.
    public let maximumSize: PixelSize? = PixelSize(width: Int(WEBP_MAX_DIMENSION), height: Int(WEBP_MAX_DIMENSION))

    /// The encoder; quality, lossless and speed come with each call's `EncodeOptions`.
    public init() {}

    public func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
        try options.validate()
        guard options.format == .webp else {
            throw DarkroomError.invalidArgument(
                name: "format", value: options.format.rawValue, expected: "webp for the libwebp encoder")
        }
        try checkWritable(image.size)
        var config = try Self.config(for: options)
        if image.animation != nil { return try WebPAnimation.encode(image, config: config) }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw DarkroomError.encodeFailed(.webp, detail: "libwebp's encoder ABI does not match its headers")
        }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        // Lossless works on ARGB; lossy converts straight to YUV(A) on import.
        picture.use_argb = options.lossless ? 1 : 0
        let stride = Int32(image.bytesPerRow)
        let imported = image.pixels.withUnsafeBufferPointer { pixels in
            image.hasAlpha
                ? WebPPictureImportRGBA(&picture, pixels.baseAddress, stride)
                : WebPPictureImportRGBX(&picture, pixels.baseAddress, stride)
        }
        guard imported != 0 else { throw DarkroomError.encodeFailed(.webp, detail: "out of memory importing the pixels") }

        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        picture.writer = WebPMemoryWrite
        let encoded = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let bytes = writer.mem else { throw WebPFailure.encodeError(picture.error_code) }
        return Array(UnsafeBufferPointer(start: bytes, count: writer.size))
    }

    /// Writes EXIF, XMP and the ICC profile as the `EXIF`, `XMP ` and `ICCP` chunks of an
    /// extended (`VP8X`) file (see `WebPMetadataChunks`).
    public func encode(_ image: Image, options: EncodeOptions, metadata: ImageMetadata) throws -> [UInt8] {
        try WebPMetadataChunks.inserting(metadata, into: try encode(image, options: options))
    }

    public var writesMetadata: Bool { true }

    /// An animated image is written animated (`WebPAnimation`).
    public var writesAnimation: Bool { true }

    // MARK: - Configuration

    private static func config(for options: EncodeOptions) throws -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw DarkroomError.encodeFailed(.webp, detail: "libwebp's encoder ABI does not match its headers")
        }
        if options.lossless {
            config.lossless = 1
            // Keep the RGB of fully transparent pixels instead of simplifying it.
            config.exact = 1
        } else {
            config.quality = Float(options.effectiveQuality)
        }
        guard WebPValidateConfig(&config) != 0 else {
            throw DarkroomError.encodeFailed(.webp, detail: "libwebp rejected the configuration")
        }
        return config
    }
}
