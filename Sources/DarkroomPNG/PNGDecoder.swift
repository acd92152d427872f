import CPNG
import DarkroomCore

// MARK: - PNGDecoder

/// Decodes PNG with libpng straight into an `Image`'s RGBA8 buffer, keeping all 8 bits of
/// alpha (palette `tRNS`, grey+alpha, RGBA, 16-bit files rounded to 8 bits).
///
/// - Every colour type and bit depth becomes RGBA8: palettes expand, `tRNS` becomes alpha,
///   grey becomes RGB, opaque files get alpha 255, 16-bit samples round to the nearest 8-bit
///   value (no gamma is applied), and Adam7-interlaced files are de-interlaced.
/// - Limits are checked on the caller's header and again on the file's own IHDR before the
///   pixel buffer is allocated; libpng is also given the limits (`png_set_user_limits`).
/// - A CRC error in a critical chunk, a broken zlib stream or data that ends before the last
///   row is an error, never a partial image. (A CRC error in an ancillary chunk such as `tEXt`
///   only drops that chunk, as libpng does by default: the pixels are unaffected. Chunks after
///   the image data are not read, so a file missing only its trailing text or `IEND` decodes.)
/// - With a `sizeHint`, non-interlaced files shrink on load: each `f`×`f` block is averaged
///   (weighted by alpha) as the rows are read, for the largest `f` that divides both sides and
///   keeps the result at least the hint (``reductionFactor(for:sizeHint:)``). Peak memory is then the reduced
///   image, not the full one, and the resampler has `f`² times fewer pixels to read.
/// - `hasAlpha` is `true` only when the file has an alpha channel or `tRNS` *and* some
///   decoded pixel is actually translucent.
/// - An embedded `iCCP` profile is converted to sRGB (`SRGBConversion`) unless
///   `options.colorProfiles` is `.ignore`.
/// - The `eXIf` orientation (from `header.orientation`) is applied unless
///   `options.appliesOrientation` is `false`.
///
/// ```swift
/// let bytes = try [UInt8](Data(contentsOf: url))
/// let header = try ImageProbe.probe(bytes)
/// let image = try PNGDecoder().decode(bytes, header: header, options: DecodeOptions())
/// ```
public struct PNGDecoder: ImageDecoder {
    public let name = "libpng"

    /// The decoder (it holds no state; one value may serve every thread).
    public init() {}

    public func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool {
        header.format == .png
    }

    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try options.checkLimits(byteCount: bytes.count, header: header)
        let (stored, profile) = try bytes.withUnsafeBufferPointer { buffer in
            try Self.decodeStoredPixels(buffer, header: header, options: options)
        }
        return options.orient(options.convertToSRGB(stored, iccProfile: profile), header: header)
    }

    // MARK: - Shrink-on-load

    /// The box-reduction factor ``decode(_:header:options:)`` uses: the largest integer `f` that
    /// divides both sides exactly and keeps the image shrunk `f` times at least `sizeHint`
    /// (upright); 1 without a hint. (Adam7-interlaced files are always read at full size.)
    ///
    /// Only exact divisors: a partial block at the right or bottom edge would become a whole
    /// pixel, stretching the image by up to a reduced pixel, so that sizes fitted from the
    /// reduced image come out a pixel off and content shifts (a 451×300 PNG fitted into 64×64
    /// gave 64×42, not 64×43). A file whose sides share no suitable factor is read at full size.
    ///
    /// ```swift
    /// let header = ImageHeader(format: .png, width: 5120, height: 2880)
    /// PNGDecoder.reductionFactor(for: header, sizeHint: PixelSize(width: 896, height: 504)) // 5
    /// ```
    public static func reductionFactor(for header: ImageHeader, sizeHint: PixelSize?) -> Int {
        guard let sizeHint else { return 1 }
        let upright = header.uprightSize
        var factor = min(upright.width / max(1, sizeHint.width), upright.height / max(1, sizeHint.height))
        factor = min(max(1, factor), Self.maximumReduction)
        while factor > 1 && (header.width % factor != 0 || header.height % factor != 0) { factor -= 1 }
        return factor
    }

    /// The hint naming the reduction ``reductionFactor(for:sizeHint:)`` picks: the upright size
    /// reduced by it, or `nil` at full size (see `ImageDecoder/canonicalSizeHint(for:options:)`).
    ///
    /// ```swift
    /// let header = ImageHeader(format: .png, width: 5120, height: 2880)
    /// PNGDecoder().canonicalSizeHint(for: header, options: DecodeOptions(sizeHint: PixelSize(width: 896, height: 504)))
    /// // 1024x576
    /// ```
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? {
        let factor = Self.reductionFactor(for: header, sizeHint: options.sizeHint)
        let upright = header.uprightSize
        return factor == 1 ? nil : PixelSize(width: upright.width / factor, height: upright.height / factor)
    }

    /// The largest box the decoder averages (the C wall's limit).
    static let maximumReduction = 256

    /// EXIF (`eXIf`) and XMP (`iTXt`) as Swift reads them, and the `iCCP` profile inflated by
    /// libpng.
    public func metadata(in bytes: [UInt8], header: ImageHeader) -> ImageMetadata {
        var metadata = ImageMetadata(reading: bytes, format: .png)
        metadata.iccProfile = PNGEmbeddedProfile.bytes(in: bytes)
        return metadata
    }

    // MARK: - Decoding

    /// The stored (not re-oriented) pixels of the PNG in `buffer`, box-reduced while the rows
    /// are read when `options.sizeHint` allows (non-interlaced files only), and the embedded
    /// `iCCP` profile when `options` converts profiles.
    private static func decodeStoredPixels(
        _ buffer: UnsafeBufferPointer<UInt8>, header: ImageHeader, options: DecodeOptions
    ) throws -> (Image, iccProfile: [UInt8]?) {
        let limits = options.limits
        guard let base = buffer.baseAddress, !buffer.isEmpty else { throw DarkroomError.emptyInput }
        // No PNG dimension may pass the pixel limit on its own (or PNG's own 2³¹−1 maximum).
        let dimensionLimit = UInt32(clamping: min(limits.maxPixels, Int(Int32.max)))
        guard let decoder = cpng_decoder_create(base, buffer.count, dimensionLimit, dimensionLimit) else {
            throw DarkroomError.decodeFailed(.png, detail: "out of memory while starting libpng")
        }
        defer { cpng_decoder_destroy(decoder) }
        cpng_decoder_set_fail_on(decoder, PNGFailure.failOn(options.failOn))

        var info = cpng_info()
        let infoStatus = cpng_decoder_read_info(decoder, &info)
        if infoStatus == CPNG_LIMIT_EXCEEDED {
            // libpng refused IHDR at png_set_user_limits; report the size it holds (bytes 16…23).
            throw DarkroomError.tooManyPixels(
                width: bigEndian32(buffer, at: 16), height: bigEndian32(buffer, at: 20), limit: limits.maxPixels)
        }
        try check(infoStatus, decoder)
        var profile: [UInt8]?
        if options.colorProfiles == .convertToSRGB {
            var bytes: UnsafePointer<UInt8>?
            var length = 0
            if cpng_decoder_icc_profile(decoder, &bytes, &length) != 0, let bytes {
                profile = Array(UnsafeBufferPointer(start: bytes, count: length))
            }
        }
        let width = Int(info.width), height = Int(info.height)
        // Re-check on the file's own IHDR: the caller's header may not be this file's.
        try limits.check(ImageHeader(format: .png, width: width, height: height))
        guard !(width * height).multipliedReportingOverflow(by: Image.bytesPerPixel).overflow else {
            throw DarkroomError.tooManyPixels(width: width, height: height, limit: limits.maxPixels)
        }

        // libpng writes every row straight into the image's buffer, or (shrinking on load)
        // one row at a time into a small buffer averaged into the image's.
        let fileHasAlpha = info.has_alpha != 0
        // The factor comes from the file's own IHDR (the caller's header may not be this file's).
        let frame = ImageHeader(format: .png, width: width, height: height, orientation: header.orientation)
        let factor = info.interlaced != 0 ? 1 : reductionFactor(for: frame, sizeHint: options.sizeHint)
        let outputWidth = (width + factor - 1) / factor, outputHeight = (height + factor - 1) / factor
        let image = try Image(width: outputWidth, height: outputHeight, hasAlpha: fileHasAlpha) { pixels in
            try check(
                cpng_decoder_read_rgba_reduced(
                    decoder, UInt32(factor), pixels.baseAddress, outputWidth * Image.bytesPerPixel, pixels.count),
                decoder)
        }
        let damaged = PNGFailure.reportDamage(of: decoder, to: options)
        // An RGBA file whose pixels are all opaque is reported opaque (the scan stops at the
        // first translucent pixel; the buffer is shared, not copied).
        // A partial image's missing rows are transparent.
        return (fileHasAlpha || damaged ? image.withAlphaScanned() : image, profile)
    }

    private static func bigEndian32(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
        guard offset + 4 <= buffer.count else { return 0 }
        return (0..<4).reduce(0) { $0 << 8 | Int(buffer[offset + $1]) }
    }

    /// Throws the ``DarkroomError`` for a failed CPNG call.
    private static func check(_ status: cpng_status, _ decoder: OpaquePointer) throws {
        guard status != CPNG_OK else { return }
        throw PNGFailure.error(status, message: String(cString: cpng_decoder_message(decoder)), encoding: false)
    }
}
