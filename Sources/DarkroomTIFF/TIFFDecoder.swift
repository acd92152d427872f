import CTIFF
import DarkroomCore

// MARK: - TIFFDecoder

/// Decodes TIFF and BigTIFF with libtiff, one page at a time, into RGBA8.
///
/// - **Samples**: 1…16, 24 and 32-bit integers (signed ones with negatives as black), 16, 32
///   and 64-bit floats (0…1 is black…white, clamped), in strips or tiles, contiguous or in
///   separate planes, with any compression this libtiff reads.
/// - **Colour**: min-is-black and min-is-white grey, palette, RGB, YCbCr (JPEG-compressed, or
///   through libtiff's RGBA reader when subsampled), old-style JPEG, CMYK through its embedded
///   CMYK profile (else R = (1 − C)(1 − K), as for JPEG), CIELab and ICCLab converted to sRGB
///   from the file's white point (D50 when it names none; Bradford-adapted to D65).
/// - **Alpha**: the sample after the colours. Associated (premultiplied) alpha is made
///   straight; unassociated or unspecified alpha is kept as stored.
/// - **Pages**: `options.page` chooses the directory (0, the first, by default); the page's
///   own Orientation tag (all eight) is applied unless `options.appliesOrientation` is `false`.
/// - **Shrink-on-load**: with a `sizeHint`, page 0 of a pyramid is read from its smallest
///   reduced-resolution copy (`ImageHeader.reducedResolutions`) still at least the hint
///   (``level(for:options:)``); the image records the full size it stands for
///   (`Image.shrunk(from:)`).
/// - **Limits**: the page's and each tile's pixel count are checked before any allocation,
///   and every allocation libtiff makes is bounded.
/// - **Damage**: a strip or tile that cannot be read is *truncated* when it runs past the end
///   of the data and an *error* otherwise; a codec's warning while decoding (corrupt JPEG data,
///   a bad fax line) is a *warning*. `options.failOn` decides which stop the decode; parts let
///   through come out transparent and are reported to `options.warnings`. libtiff's warnings
///   about the directory itself (unknown tags and the like) are not damage.
///
/// ```swift
/// let bytes = try [UInt8](Data(contentsOf: url))
/// let secondPage = try TIFFDecoder().decode(bytes, header: ImageProbe.probe(bytes), options: DecodeOptions(page: 1))
/// ```
public struct TIFFDecoder: ImageDecoder {
    public let name = "libtiff"

    /// The decoder (it holds no state; one value may serve every thread).
    public init() {}

    public func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool {
        header.format == .tiff
    }

    // MARK: - Shrink-on-load

    /// The reduced-resolution copy a decode reads instead of page 0: the smallest whose upright
    /// size is at least `options.sizeHint`; `nil` (full size) without a hint, for another page,
    /// or when no copy is large enough.
    ///
    /// ```swift
    /// let header = try ImageProbe.probe(pyramid)   // 4096×3072 with 2048×1536, 1024×768, 512×384
    /// TIFFDecoder.level(for: header, options: DecodeOptions(sizeHint: PixelSize(width: 600, height: 400)))
    /// // page 2: 1024x768
    /// ```
    public static func level(for header: ImageHeader, options: DecodeOptions) -> ReducedResolution? {
        guard options.page == 0, let hint = options.sizeHint else { return nil }
        return header.reducedResolutions.last { level in
            let upright = header.orientation.uprightSize(ofStored: level.size)
            return upright.width >= hint.width && upright.height >= hint.height
        }
    }

    /// The upright size of the copy ``level(for:options:)`` picks; `nil` at full size.
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? {
        Self.level(for: header, options: options).map { header.orientation.uprightSize(ofStored: $0.size) }
    }

    /// The stored size of the copy ``level(for:options:)`` picks, else the header's.
    public func decodedSize(for header: ImageHeader, options: DecodeOptions) -> PixelSize {
        Self.level(for: header, options: options)?.size ?? header.size
    }

    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try options.checkLimits(byteCount: bytes.count, header: header)
        return try bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { throw DarkroomError.emptyInput }
            let limits = options.limits
            // Every allocation libtiff makes is bounded by the largest strip the pixel limit
            // allows: five 64-bit samples per pixel.
            let maxPixels = UInt64(max(0, limits.maxPixels))
            let maxAllocation = maxPixels.multipliedReportingOverflow(by: 40).overflow ? UInt64(Int64.max) : maxPixels * 40 + (16 << 20)
            guard let decoder = ctiff_decoder_create(base, buffer.count, maxPixels, maxAllocation) else {
                throw DarkroomError.decodeFailed(.tiff, detail: "out of memory while starting libtiff")
            }
            defer { ctiff_decoder_destroy(decoder) }
            ctiff_decoder_set_fail_on(decoder, TIFFFailure.failOn(options.failOn))
            guard let level = Self.level(for: header, options: options) else { return try Self.decode(decoder, options: options) }
            var reduced = options
            reduced.page = level.page
            return try Self.decode(decoder, options: reduced, standingFor: header)
        }
    }

    /// The number of pages (image directories) in `bytes`.
    ///
    /// ```swift
    /// let pages = try TIFFDecoder.pageCount(in: bytes)   // 3 for a three-page scan
    /// ```
    public static func pageCount(in bytes: [UInt8]) throws -> Int {
        try bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { throw DarkroomError.emptyInput }
            guard let decoder = ctiff_decoder_create(base, buffer.count, UInt64(Int64.max), 64 << 20) else {
                throw DarkroomError.decodeFailed(.tiff, detail: "out of memory while starting libtiff")
            }
            defer { ctiff_decoder_destroy(decoder) }
            var info = ctiff_info()
            let status = ctiff_decoder_open(decoder, 0, &info)
            guard status == CTIFF_OK || status == CTIFF_UNSUPPORTED || status == CTIFF_LIMIT_EXCEEDED else {
                throw TIFFFailure.error(status, decoder: decoder, page: 0, limit: 0)
            }
            return Int(info.page_count)
        }
    }

    // MARK: - Decoding

    /// Decodes `options.page`. A reduced-resolution copy standing for the first page records
    /// that page's stored size and is turned by that page's orientation.
    private static func decode(_ decoder: OpaquePointer, options: DecodeOptions, standingFor first: ImageHeader? = nil) throws -> Image {
        let limits = options.limits
        var info = ctiff_info()
        let page = UInt32(clamping: options.page)
        let status = ctiff_decoder_open(decoder, page, &info)
        if status == CTIFF_LIMIT_EXCEEDED {
            let tile = String(cString: ctiff_decoder_message(decoder)) == "tile"
            if tile {
                throw DarkroomError.frameTooLarge(
                    .tiff, width: Int(info.width), height: Int(info.height),
                    frame: PixelSize(width: Int(info.tile_width), height: Int(info.tile_height)), limit: limits.maxPixels)
            }
            throw DarkroomError.tooManyPixels(width: Int(info.width), height: Int(info.height), limit: limits.maxPixels)
        }
        guard status == CTIFF_OK else {
            throw TIFFFailure.error(status, decoder: decoder, page: options.page, limit: limits.maxPixels)
        }
        let width = Int(info.width), height = Int(info.height)
        // The page's own size and orientation (the caller's header describes the first page).
        let pageHeader = ImageHeader(
            format: .tiff, width: width, height: height,
            orientation: first?.orientation ?? Orientation(exifValue: Int(info.orientation)))
        try limits.check(pageHeader)

        var profile: ICCProfile?
        if options.colorProfiles == .convertToSRGB {
            var bytes: UnsafePointer<UInt8>?
            var length: UInt32 = 0
            if ctiff_decoder_icc_profile(decoder, &bytes, &length) != 0, let bytes {
                profile = ICCProfile(bytes: Array(UnsafeBufferPointer(start: bytes, count: Int(length))))
            }
        }
        let isCMYK = info.is_cmyk != 0
        let cmykConversion = isCMYK && info.alpha == 0 && profile?.channelCount == 4 ? profile.flatMap(SRGBConversion.init(from:)) : nil
        var image = try Image(width: width, height: height, hasAlpha: info.alpha != 0) { pixels in
            let status = ctiff_decoder_read_rgba(decoder, pixels.baseAddress, pixels.count, cmykConversion != nil ? 1 : 0)
            guard status == CTIFF_OK else {
                throw TIFFFailure.error(status, decoder: decoder, page: options.page, limit: limits.maxPixels)
            }
        }
        let damaged = TIFFFailure.reportDamage(of: decoder, to: options)
        if let cmykConversion { image = cmykConversion.apply(to: image) }
        // A file whose alpha is all opaque is reported opaque; a partial image's holes are transparent.
        if info.alpha != 0 || damaged { image = image.withAlphaScanned() }
        // The pixels of a CMYK file are RGB by now: a CMYK profile does not describe them.
        if !isCMYK { image = options.convertToSRGB(image, profile: profile) }
        if let first { image = image.shrunk(from: first.size) }
        return options.orient(image, header: pageHeader)
    }
}
