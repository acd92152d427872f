import CWebP
import DarkroomCore

// MARK: - WebPDecoder

/// Decodes WebP (lossy, lossless, with alpha, animated) with libwebp, keeping all 8 bits of
/// alpha.
///
/// - A still image is decoded straight into the `Image`'s RGBA8 buffer (straight alpha).
/// - An animated WebP yields every frame composed on the canvas (`WebPAnimDecoder`), with
///   their delays, disposals and loop count (`Image.animation`; `WebPAnimation`); with
///   `options.animated` off, the first frame alone.
/// - Limits are checked on the caller's header and again on libwebp's own reading of the
///   size (`WebPGetFeatures`) before any pixel memory is allocated.
/// - `hasAlpha` is `true` only when the file has alpha *and* some pixel is translucent.
/// - An embedded `ICCP` profile is converted to sRGB unless `options.colorProfiles` is `.ignore`.
/// - The EXIF orientation (from `header.orientation`) is applied unless
///   `options.appliesOrientation` is `false`.
///
/// ```swift
/// let header = try ImageProbe.probe(bytes)
/// let image = try WebPDecoder().decode(bytes, header: header, options: DecodeOptions())
/// ```
public struct WebPDecoder: ImageDecoder {
    public let name = "libwebp"

    /// The decoder (it holds no state; one value may serve every thread).
    public init() {}

    public func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool {
        header.format == .webp
    }

    /// `nil`: every decode is full size, whatever the hint.
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? { nil }

    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try options.checkLimits(byteCount: bytes.count, header: header)
        let stored = try bytes.withUnsafeBufferPointer { buffer in
            try Self.decodeStoredPixels(buffer, options: options)
        }
        let profile = options.colorProfiles == .ignore ? nil : EmbeddedICCProfile.bytes(in: bytes, format: .webp)
        return try stored.mappingFrames { options.orient(options.convertToSRGB($0, iccProfile: profile), header: header) }
    }

    // MARK: - Still images

    private static func decodeStoredPixels(_ buffer: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> Image {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { throw DarkroomError.emptyInput }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(base, buffer.count, &features)
        guard status == VP8_STATUS_OK else { throw WebPFailure.decodeError(status, while: "reading the header") }
        let width = Int(features.width), height = Int(features.height)
        // Re-check on libwebp's own reading of the size: the caller's header may not be this file's.
        try options.limits.check(ImageHeader(format: .webp, width: width, height: height))
        if features.has_animation != 0 {
            return try WebPAnimation.decode(buffer, width: width, height: height, options: options)
        }

        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw DarkroomError.decodeFailed(.webp, detail: "libwebp's decoder ABI does not match its headers")
        }
        config.output.colorspace = MODE_RGBA  // straight (non-premultiplied) RGBA
        config.output.is_external_memory = 1
        let fileHasAlpha = features.has_alpha != 0
        var partial = false
        let image = try Image(width: width, height: height, hasAlpha: fileHasAlpha) { pixels in
            config.output.u.RGBA.rgba = pixels.baseAddress
            config.output.u.RGBA.stride = Int32(width * Image.bytesPerPixel)
            config.output.u.RGBA.size = pixels.count
            // The advanced-API form of WebPDecodeRGBAInto: the same path into our buffer, but
            // it reports *why* a decode failed.
            let status = WebPDecode(base, buffer.count, &config)
            WebPFreeDecBuffer(&config.output)  // frees nothing of ours: the memory is external
            if status == VP8_STATUS_NOT_ENOUGH_DATA,
                !options.stops(on: .truncated, warning: Self.truncationWarning(width: width, height: height)) {
                partial = true
                return try decodeAvailableRows(buffer, config: &config, into: pixels, width: width, height: height)
            }
            guard status == VP8_STATUS_OK else { throw WebPFailure.decodeError(status, while: "decoding the image") }
        }
        return fileHasAlpha || partial ? image.withAlphaScanned() : image
    }

    // MARK: - Truncated files

    private static func truncationWarning(width: Int, height: Int) -> DecodeWarning {
        DecodeWarning(format: .webp, damage: .truncated, detail: "the data ends before the \(width)×\(height) image is complete")
    }

    /// The rows of a truncated file that its data holds, through libwebp's incremental decoder;
    /// the rows after them transparent.
    private static func decodeAvailableRows(
        _ buffer: UnsafeBufferPointer<UInt8>, config: inout WebPDecoderConfig, into pixels: UnsafeMutableBufferPointer<UInt8>,
        width: Int, height: Int
    ) throws {
        guard let incremental = WebPIDecode(nil, 0, &config) else {
            throw DarkroomError.decodeFailed(.webp, detail: "out of memory for libwebp's incremental decoder")
        }
        defer {
            WebPIDelete(incremental)
            WebPFreeDecBuffer(&config.output)
        }
        let status = WebPIUpdate(incremental, buffer.baseAddress, buffer.count)
        var rows: Int32 = 0
        var decodedWidth: Int32 = 0
        var decodedHeight: Int32 = 0
        var stride: Int32 = 0
        guard status == VP8_STATUS_SUSPENDED || status == VP8_STATUS_OK,
            WebPIDecGetRGB(incremental, &rows, &decodedWidth, &decodedHeight, &stride) != nil || rows == 0
        else {
            throw WebPFailure.decodeError(status == VP8_STATUS_OK ? VP8_STATUS_NOT_ENOUGH_DATA : status, while: "decoding the image")
        }
        let kept = min(max(Int(rows), 0), height) * width * Image.bytesPerPixel
        UnsafeMutableBufferPointer(rebasing: pixels[kept...]).update(repeating: 0)
    }
}
