import CJPEG
import DarkroomCore

// MARK: - JPEGDecoder

/// Decodes JPEG with libjpeg-turbo, shrinking on load: with a `sizeHint` it decodes at the
/// smallest DCT scale (1/8, 1/4, 1/2 or 1) whose upright output still covers the hint,
/// which is several times faster than decoding full size and resizing.
///
/// - Pixels are written by libjpeg-turbo straight into the `Image` buffer as RGBA.
/// - Greyscale becomes RGB. CMYK/YCCK (Adobe-inverted when the file has an Adobe marker) is
///   converted through its embedded CMYK profile (perceptual, as sharp does); without one,
///   or with `.ignore`, by the plain formula R = (1 − C)(1 − K).
/// - Truncated or corrupt data throws (libjpeg's "corrupt data" warnings count as errors) unless
///   `options.failOn` lets it through: then the rows that arrived come back, the rest grey;
///   extraneous bytes between markers are tolerated because the pixels are intact.
/// - Progressive files with more than 500 scans are refused (a known CPU-exhaustion trick).
/// - An embedded ICC profile (`APP2`) is converted to sRGB unless `options.colorProfiles` is
///   `.ignore`.
/// - EXIF orientation is applied unless `options.appliesOrientation` is `false`.
///
/// ```swift
/// let header = try ImageProbe.probe(bytes)
/// let thumbnailSource = try JPEGDecoder().decode(
///     bytes, header: header, options: DecodeOptions(sizeHint: PixelSize(width: 256, height: 256)))
/// ```
public struct JPEGDecoder: ImageDecoder {
    /// How much quality the decoder may trade for speed.
    public var tuning: Tuning

    /// A decoder trading quality for speed as far as `tuning` allows (``Tuning/exact`` trades none).
    public init(tuning: Tuning = .default) {
        self.tuning = tuning
    }

    public var name: String { "libjpeg-turbo" }

    public func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool {
        header.format == .jpeg
    }

    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try options.checkLimits(byteCount: bytes.count, header: header)
        let embedded = options.colorProfiles == .ignore ? nil : EmbeddedICCProfile.bytes(in: bytes, format: .jpeg)
        let profile = embedded.flatMap(ICCProfile.init(bytes:))
        let (stored, wasCMYK) = try bytes.withUnsafeBufferPointer { buffer in
            try decodeStored(buffer, orientation: header.orientation, options: options, profile: profile)
        }
        // A CMYK file's pixels are RGB by now: an RGB or grey profile does not describe them.
        return options.orient(wasCMYK ? stored : options.convertToSRGB(stored, profile: profile), header: header)
    }

    // MARK: - Decoding

    /// Decodes the stored (not yet oriented) pixels at the chosen scale, and says whether they
    /// were CMYK. A CMYK image is converted through `profile` when that is a CMYK profile.
    private func decodeStored(
        _ buffer: UnsafeBufferPointer<UInt8>, orientation: Orientation, options: DecodeOptions,
        profile: ICCProfile?
    ) throws -> (Image, isCMYK: Bool) {
        guard let base = buffer.baseAddress, let decoder = cjpeg_decoder_create(base, buffer.count) else {
            throw DarkroomError.decodeFailed(.jpeg, detail: "out of memory creating the decoder")
        }
        defer { cjpeg_decoder_destroy(decoder) }
        cjpeg_decoder_set_fail_on(decoder, LibJPEGStatus.failOn(options.failOn))

        var info = cjpeg_info()
        try LibJPEGStatus.check(cjpeg_decoder_read_header(decoder, &info), decoder)
        // The frame libjpeg will decode is the one that must pass the limits.
        let frame = ImageHeader(
            format: .jpeg, width: Int(info.width), height: Int(info.height), orientation: orientation,
            hasAlpha: false, isProgressive: info.progressive != 0)
        try options.limits.check(frame)

        let denominator = Self.scaleDenominator(for: frame, sizeHint: options.sizeHint)
        var width: UInt32 = 0
        var height: UInt32 = 0
        try LibJPEGStatus.check(
            cjpeg_decoder_set_scale(decoder, Int32(denominator), tuning.cOptions, &width, &height), decoder)
        guard width > 0, height > 0 else {
            throw DarkroomError.invalidDimensions(.jpeg, width: Int(width), height: Int(height))
        }
        let bytesPerRow = Int(width) * Image.bytesPerPixel
        let isCMYK = info.color_model == CJPEG_COLOR_CMYK
        // Built only for a CMYK file: an RGB one tagged CMYK does not pay for the grid.
        let cmyk = isCMYK && profile?.channelCount == 4 ? profile.flatMap(SRGBConversion.init(from:)) : nil
        cjpeg_decoder_keep_cmyk(decoder, cmyk != nil ? 1 : 0)
        var image = try Image(width: Int(width), height: Int(height), hasAlpha: false) { pixels in
            try LibJPEGStatus.check(
                cjpeg_decoder_read_rgba(decoder, pixels.baseAddress, bytesPerRow, pixels.count), decoder)
        }
        LibJPEGStatus.reportDamage(of: decoder, to: options)
        if let cmyk { image = cmyk.apply(to: image) }
        // A scale that does not divide the frame leaves a partial last column or row: record the
        // full size, so that resizes keep its proportions (Image.shrunkFrom).
        let divides = frame.width % denominator == 0 && frame.height % denominator == 0
        return (divides ? image : image.shrunk(from: PixelSize(width: frame.width, height: frame.height)), isCMYK)
    }
}
