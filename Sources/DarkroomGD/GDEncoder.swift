import CGD
import DarkroomCore

// MARK: - GDEncoder

/// Encodes one format with libgd: JPEG, PNG, WebP, AVIF, GIF, BMP or TIFF.
///
/// | format | options used | notes |
/// | --- | --- | --- |
/// | jpeg | `quality`, `progressive` | composited over white first |
/// | png | `compressionLevel` | alpha kept at 7 bits; libgd writes unfiltered rows |
/// | webp | `quality`, `lossless` | alpha kept at 7 bits |
/// | avif | `quality`, `speed` | quality 100 is lossless in libgd |
/// | gif | — | exact palette up to 256 colours, else libgd's quantiser; alpha < 128 → transparent; animations kept (`GIFAnimationWriter`) |
/// | bmp | — | 24-bit, composited over white first |
/// | tiff | — | alpha written premultiplied, as the file's tags say |
///
/// **Alpha precision.** libgd stores 7 bits of alpha, so PNG and WebP written here keep
/// 7 of the image's 8 alpha bits (`a7 = 127 − (a >> 1)`; values come back within ±1).
/// Use DarkroomPNG / DarkroomWebP when all 8 bits matter.
///
/// ```swift
/// let encoder = GDEncoder(format: .webp)
/// let bytes = try encoder.encode(image, options: EncodeOptions(format: .webp, quality: 85))
/// ```
public struct GDEncoder: ImageEncoder {
    public let name = "libgd"
    public let format: ImageFormat

    /// GIF stores 16-bit sides (libgd writes larger ones wrapped, as a wrong picture), and
    /// AV1 frames are at most 65536 pixels on a side.
    public var maximumSize: PixelSize? {
        switch format {
        case .gif: PixelSize(width: 65_535, height: 65_535)
        case .avif: PixelSize(width: 65_536, height: 65_536)
        default: nil
        }
    }

    /// GIF is written animated when the image is (every frame, its timing and the loop count).
    public var writesAnimation: Bool { format == .gif }

    /// An encoder for `format`; ``encode(_:options:)`` throws when ``supports(_:)`` is `false`.
    public init(format: ImageFormat) {
        self.format = format
    }

    /// Whether Darkroom writes `format` through libgd. Answered without loading libgd (so
    /// that registering the encoders costs nothing at start-up); a build of libgd that cannot
    /// write the format after all, or a missing libgd, makes ``encode(_:options:)`` throw
    /// `DarkroomError/unsupportedFormat(_:reason:)`. ``GDDecoder/writableFormats`` gives the
    /// exact answer (and loads libgd).
    ///
    /// ```swift
    /// GDEncoder.supports(.tga) // false: libgd reads TGA but cannot write it
    /// ```
    public static func supports(_ format: ImageFormat) -> Bool {
        GDCapabilities.encodable.contains(format)
    }

    public func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
        guard options.format == format else {
            throw DarkroomError.invalidArgument(
                name: "format", value: options.format.rawValue, expected: "\(format.rawValue) for this encoder")
        }
        try options.validate()
        if Self.supports(format) { try GDLibrary.require(format) }
        guard Self.supports(format), GDCapabilities.writable.contains(format) else {
            throw DarkroomError.unsupportedFormat(format, reason: "this libgd build cannot write \(format.displayName)")
        }
        if format == .gif, image.animation != nil { return try GIFAnimationWriter.write(image) }
        let im = try gdImage(for: image)
        defer { dr_gdImageDestroy(im) }
        if format == .jpeg { dr_gdImageInterlace(im, options.progressive ? 1 : 0) }

        var size: Int32 = 0
        let (written, messages) = GDDiagnostics.capturing { write(im, size: &size, options: options) }
        guard let written else {
            throw DarkroomError.encodeFailed(
                format, detail: GDDiagnostics.detail(messages, fallback: "libgd produced no output"))
        }
        defer { dr_gdFree(written) }
        guard size > 0 else {
            throw DarkroomError.encodeFailed(
                format, detail: GDDiagnostics.detail(messages, fallback: "libgd wrote 0 bytes"))
        }
        return [UInt8](UnsafeRawBufferPointer(start: written, count: Int(size)))
    }

    // MARK: - Steps

    /// The gd image this format is written from (the caller destroys it).
    private func gdImage(for image: Image) throws -> gdImagePtr {
        switch format {
        case .jpeg, .bmp:
            try GDPixelConversion.trueColorImage(from: image.flattened(), format: format)
        case .tiff:
            try GDPixelConversion.trueColorImage(from: TIFFConventions.premultiplied(image), format: format)
        case .gif:
            try GIFPalette.paletteImage(from: image)
        default:
            try GDPixelConversion.trueColorImage(from: image, format: format)
        }
    }

    private func write(_ im: gdImagePtr, size: inout Int32, options: EncodeOptions) -> UnsafeMutableRawPointer? {
        let quality = Int32(options.effectiveQuality)
        switch format {
        case .jpeg: return dr_gdImageJpegPtr(im, &size, quality)
        case .png: return dr_gdImagePngPtrEx(im, &size, Int32(options.effectiveCompressionLevel))
        case .webp: return dr_gdImageWebpPtrEx(im, &size, options.lossless ? gdWebpLossless : quality)
        case .avif: return dr_gdImageAvifPtrEx(im, &size, quality, Int32(options.effectiveSpeed))
        case .gif: return dr_gdImageGifPtr(im, &size)
        case .bmp: return dr_gdImageBmpPtr(im, &size, 0)
        case .tiff: return dr_gdImageTiffPtr(im, &size)
        case .heif, .tga: return nil  // not in GDCapabilities.encodable; refused above
        }
    }
}
