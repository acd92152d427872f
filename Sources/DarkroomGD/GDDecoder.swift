import CGD
import DarkroomCore

// MARK: - GDDecoder

/// Decodes JPEG, PNG, GIF (first frame), WebP, AVIF, HEIF, TIFF, BMP and TGA with libgd.
///
/// - **Limits** are checked again before any call into libgd, so a 40000×40000 header
///   is refused in microseconds; libgd never allocates for it.
/// - **Damage throws.** A JPEG on which libjpeg reports *any* warning (premature end,
///   corrupt data) throws, as sharp's default `failOn: 'warning'` does — libgd itself
///   would return the grey-filled half image. GIF and PNG structure is checked before
///   libgd sees it (libgd would fill a cut GIF with colour 0 and let libpng print its
///   warnings). Everything else libgd rejects becomes `DarkroomError/decodeFailed(_:detail:)`
///   carrying libgd's own message; nothing is printed.
/// - **Pixels** come out RGBA8 with 8-bit alpha rebuilt from libgd's 7 bits
///   (`255 − round(a·255/127)`, exact for opaque and transparent); `hasAlpha` is `true`
///   only when some pixel is translucent.
/// - **Orientation** from the header is applied when `options.appliesOrientation`.
/// - libgd cannot shrink on load, so `options.sizeHint` is not used.
///
/// ```swift
/// let decoder = GDDecoder()
/// let header = try ImageProbe.probe(bytes)
/// if decoder.canDecode(header, options: DecodeOptions()) {
///     let image = try decoder.decode(bytes, header: header, options: DecodeOptions())
/// }
/// ```
public struct GDDecoder: ImageDecoder {
    public let name = "libgd"

    /// The decoder (it holds no state; libgd itself is loaded once, when first needed).
    public init() {}

    /// The formats this process's libgd can decode (computed once, at first use).
    public var readableFormats: Set<ImageFormat> { GDCapabilities.readable }

    /// The formats this process's libgd can encode (see ``GDEncoder`` for the ones Darkroom drives).
    public var writableFormats: Set<ImageFormat> { GDCapabilities.writable }

    /// Whether this libgd reads `header.format`. When libgd is not installed every format is
    /// claimed, so that ``decode(_:header:options:)`` explains how to install it.
    public func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool {
        !GDLibrary.isAvailable || readableFormats.contains(header.format)
    }

    /// `nil`: every decode is full size, whatever the hint.
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? { nil }

    /// Probes `bytes` and decodes them.
    ///
    /// ```swift
    /// let image = try GDDecoder().decode(try Data(contentsOf: url).map { $0 })
    /// ```
    public func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> Image {
        try options.limits.check(byteCount: bytes.count)
        return try decode(bytes, header: ImageProbe.probe(bytes), options: options)
    }

    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try options.checkLimits(byteCount: bytes.count, header: header)
        let format = header.format
        try GDLibrary.require(format)
        guard readableFormats.contains(format) else {
            throw DarkroomError.unsupportedFormat(format, reason: "this libgd build cannot read \(format.displayName)")
        }
        guard bytes.count <= Int(Int32.max) else {
            throw DarkroomError.inputTooLarge(byteCount: bytes.count, limit: Int(Int32.max))
        }

        var image: Image
        switch format {
        case .png:
            image = try decodeWithLibgd(PNGChunkFilter.essentialChunks(bytes), format: .png, limits: options.limits)
        case .gif:
            let frame = try GIFFirstFrame(bytes)
            image = try decodeWithLibgd(bytes, format: .gif, limits: options.limits)
            guard image.width == frame.width, image.height == frame.height else {
                throw DarkroomError.corrupt(
                    .gif, detail: "libgd decoded \(image.size), the first frame is \(frame.width)x\(frame.height)")
            }
            if !frame.fillsScreen { image = Self.placing(image, on: frame) }
        case .tiff:
            image = try TIFFConventions.corrected(
                decodeWithLibgd(bytes, format: .tiff, limits: options.limits), layout: TIFFLayout(bytes))
            // libtiff already resolved the flips; finish the job (and undo it for stored pixels).
            image = image.applying(TIFFConventions.remainingOrientation(afterLibgdRead: header.orientation))
            image = options.convertToSRGB(image, iccProfile: profile(of: bytes, format: .tiff, options))
            return options.appliesOrientation ? image : image.applying(header.orientation.inverse)
        default:
            image = try decodeWithLibgd(bytes, format: format, limits: options.limits)
        }
        // An ICC profile first; else AVIF/HEIF code points (nclx), as libavif and browsers do.
        var colour = profile(of: bytes, format: format, options).flatMap(ICCProfile.init(bytes:))
        if colour == nil, options.colorProfiles == .convertToSRGB {
            colour = EmbeddedICCProfile.cicp(in: bytes, format: format)?.profile
        }
        return options.orient(options.convertToSRGB(image, profile: colour), header: header)
    }

    /// The embedded profile Swift can find: AVIF/HEIF `colr`, TIFF's field (and WebP's `ICCP`
    /// on this fallback path); `nil` for the rest, or when profiles are ignored.
    private func profile(of bytes: [UInt8], format: ImageFormat, _ options: DecodeOptions) -> [UInt8]? {
        options.colorProfiles == .ignore ? nil : EmbeddedICCProfile.bytes(in: bytes, format: format)
    }

    // MARK: - Calling libgd

    /// The error for a decode libgd refused, in words a user can act on: what libgd says it
    /// does not support is unsupported; its bare failures say the data is damaged or cut short.
    static func failure(_ format: ImageFormat, messages: [String]) -> DarkroomError {
        let detail = GDDiagnostics.detail(messages, fallback: "")
        if detail.contains("not supported") {
            return .unsupportedFormat(format, reason: detail.hasPrefix("gd-tga: ") ? String(detail.dropFirst(8)) : detail)
        }
        if detail.isEmpty || detail.contains("context creation failed") {
            return .decodeFailed(format, detail: "the data is damaged or cut short (libgd could not read it)")
        }
        return .decodeFailed(format, detail: detail)
    }

    /// One libgd decode with its messages captured; always destroys the gd image.
    private func decodeWithLibgd(_ bytes: [UInt8], format: ImageFormat, limits: DecodeLimits) throws -> Image {
        let (decoded, messages) = GDDiagnostics.capturing { () -> gdImagePtr? in
            bytes.withUnsafeBytes { raw in
                // libgd reads through a non-owning context and does not write to the data.
                let data = UnsafeMutableRawPointer(mutating: raw.baseAddress)
                return Self.read(format, size: Int32(raw.count), data: data)
            }
        }
        guard let im = decoded else { throw Self.failure(format, messages: messages) }
        defer { dr_gdImageDestroy(im) }
        if format == .jpeg, !messages.isEmpty {
            // libjpeg recovered from damage and filled the rest; refuse the partial image.
            let detail = GDDiagnostics.detail(messages, fallback: "")
            throw detail.lowercased().contains("premature end")
                ? DarkroomError.truncated(.jpeg, detail: detail)
                : DarkroomError.corrupt(.jpeg, detail: detail)
        }
        // The header was checked; make sure libgd agreed with it before copying.
        try limits.check(ImageHeader(format: format, width: Int(im.pointee.sx), height: Int(im.pointee.sy)))
        return GDPixelConversion.image(from: im)
    }

    private static func read(_ format: ImageFormat, size: Int32, data: UnsafeMutableRawPointer?) -> gdImagePtr? {
        switch format {
        case .jpeg: dr_gdImageCreateFromJpegPtrEx(size, data, 0)  // 0: report libjpeg warnings
        case .png: dr_gdImageCreateFromPngPtr(size, data)
        case .gif: dr_gdImageCreateFromGifPtr(size, data)
        case .webp: dr_gdImageCreateFromWebpPtr(size, data)
        case .avif: dr_gdImageCreateFromAvifPtr(size, data)
        case .heif: dr_gdImageCreateFromHeifPtr(size, data)
        case .tiff: dr_gdImageCreateFromTiffPtr(size, data)
        case .bmp: dr_gdImageCreateFromBmpPtr(size, data)
        case .tga: dr_gdImageCreateFromTgaPtr(size, data)
        }
    }

    // MARK: - GIF frames

    /// The first frame drawn at its position on a transparent, screen-sized canvas.
    private static func placing(_ frame: Image, on layout: GIFFirstFrame) -> Image {
        frame.pixels.withUnsafeBytes { raw in
            let source = raw.bindMemory(to: UInt32.self)
            return Image(width: layout.screenWidth, height: layout.screenHeight, hasAlpha: true) { buffer in
                let canvas = UnsafeMutableRawBufferPointer(buffer).bindMemory(to: UInt32.self)
                canvas.initialize(repeating: 0)
                for y in 0..<frame.height {
                    let from = y * frame.width, to = (layout.top + y) * layout.screenWidth + layout.left
                    for x in 0..<frame.width { canvas[to + x] = source[from + x] }
                }
            }
        }
    }
}
