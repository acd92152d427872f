import DarkroomCore

// MARK: - BMPDecoder

/// Decodes Windows and OS/2 bitmaps (BMP/DIB) in pure Swift, keeping all 8 bits of alpha.
///
/// Reads:
/// - **Headers:** BITMAPCOREHEADER (12 bytes, OS/2 1.x), OS/2 2.x (16–64 bytes),
///   BITMAPINFOHEADER (40), V2 (52), V3 (56), V4 (108) and V5 (124); bottom-up rows, or
///   top-down when the height is negative; rows padded to 4 bytes.
/// - **Palette images:** 1, 2, 4 and 8 bits (BGR or BGR0 entries); a palette shorter than
///   2^bits is fine, a pixel whose index is past it is an error naming the pixel.
/// - **Direct colour:** 16 bits (5-5-5 by default), 24 bits (B, G, R) and 32 bits; BI_BITFIELDS
///   and BI_ALPHABITFIELDS masks from a V2+ header or the 12/16 bytes after a 40-byte one,
///   any width up to 32 bits, scaled to 8 bits with rounding (a 5-bit 31 is 255).
/// - **Run-length:** BI_RLE8 and BI_RLE4 with deltas, end-of-line and end-of-bitmap; pixels
///   the data skips are transparent black (as browsers show them), and `hasAlpha` is then `true`.
///
/// **Alpha rule.** A 32-bit BI_RGB file's fourth byte is reserved, but many writers (Pillow,
/// Windows icons, games) store alpha in it: it is taken as alpha when *some* pixel has a
/// non-zero fourth byte, and the image is opaque when all are zero — as browsers and
/// ImageMagick do. The same holds for an alpha mask (BI_BITFIELDS in a V3+ header, or
/// BI_ALPHABITFIELDS): a file whose alpha values are all zero is opaque. 16-bit BI_RGB has no
/// alpha. `hasAlpha` is `true` only when some pixel is translucent.
///
/// Refused with a `DarkroomError`: truncated headers or pixel data (`.truncated`); bad header
/// sizes, offsets, masks, palette indices or depth/compression pairs (`.corrupt`); a zero or
/// negative width (`.invalidDimensions`); JPEG/PNG-in-BMP, CMYK and OS/2 Huffman/RLE24
/// (`.unsupportedFormat`, with the reason). Limits are checked on the caller's header and
/// again on this decoder's own reading of the size, before any pixel memory is allocated.
///
/// BMP has no orientation; `options.orient` is applied like every decoder (identity unless the
/// caller's header says otherwise). Size hints are ignored: every decode is full size.
///
/// ```swift
/// let header = try ImageProbe.probe(bytes)
/// let image = try BMPDecoder().decode(bytes, header: header, options: DecodeOptions())
/// ```
public struct BMPDecoder: ImageDecoder {
    public let name = "darkroom-bmp"

    /// The decoder (it holds no state; one value may serve every thread).
    public init() {}

    /// `true` for BMP headers.
    ///
    /// ```swift
    /// BMPDecoder().canDecode(ImageHeader(format: .bmp, width: 7, height: 5), options: DecodeOptions())  // true
    /// ```
    public func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool {
        header.format == .bmp
    }

    /// `nil`: every decode is full size, whatever the hint.
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? { nil }

    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try options.checkLimits(byteCount: bytes.count, header: header)
        let (stored, profile) = try bytes.withUnsafeBytes { raw in
            let file = ByteReader(raw)
            return (try Self.decodeStoredPixels(file, options: options), Self.embeddedProfile(file))
        }
        return options.orient(options.convertToSRGB(stored, iccProfile: profile), header: header)
    }

    /// A BITMAPV5HEADER's embedded ICC profile (`bV5CSType` 'MBED'): `bV5ProfileSize` bytes at
    /// `bV5ProfileData`, counted from the start of the DIB header. A linked profile (a file
    /// name) is never opened. `nil` without one, or when it lies outside the file.
    static func embeddedProfile(_ file: ByteReader) -> [UInt8]? {
        guard file.u32le(14) == 124, file.u32le(14 + 56) == 0x4D42_4544,
            let offset = file.u32le(14 + 112), let size = file.u32le(14 + 116), size > 0,
            offset <= file.count - 14, size <= file.count - 14 - offset,
            let bytes = file.slice(14 + offset, size)
        else { return nil }
        return Array(bytes)
    }

    // MARK: - Decoding

    private static func decodeStoredPixels(_ file: ByteReader, options: DecodeOptions) throws -> Image {
        let limits = options.limits
        let header = try BMPHeader(file)
        // Re-check on this file's own size: the caller's header may not be this file's.
        try limits.check(ImageHeader(format: .bmp, width: header.width, height: header.height))
        let (pixelCount, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        let (byteCount, overflow2) = pixelCount.multipliedReportingOverflow(by: Image.bytesPerPixel)
        guard !overflow, !overflow2 else {
            throw DarkroomError.tooManyPixels(width: header.width, height: header.height, limit: limits.maxPixels)
        }

        // Uncompressed data must hold every row before pixels are allocated for them.
        let isRunLength = header.compression == .rle8 || header.compression == .rle4
        let (rowStride, rows) = isRunLength ? (0, header.height) : try BMPPixelReaders.rowLayout(file, header: header, options: options)

        var hasAlpha = false
        var partial = rows < header.height
        let pixels = try [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            HugePageAdvice.advise(base, byteCount: byteCount)
            let canvas = BMPCanvas(base: base, width: header.width, height: header.height, isTopDown: header.isTopDown)
            switch header.compression {
            case .rle8, .rle4:
                buffer.initialize(repeating: 0)  // unwritten pixels are transparent black
                initialized = byteCount
                let ending = try BMPRunLength.decode(file, header: header, options: options, into: canvas)
                hasAlpha = !ending.complete
                partial = ending.cut
            case .rgb, .bitfields, .alphaBitfields:
                if partial { buffer.initialize(repeating: 0) }  // rows the file lacks are transparent black
                let alpha = try BMPPixelReaders.read(file, header: header, rowStride: rowStride, rows: rows, into: canvas)
                initialized = byteCount
                if let alpha {
                    if alpha.anyNonZero {
                        hasAlpha = alpha.anyTranslucent
                    } else {
                        canvas.makeOpaque()  // all zero: the reserved byte, not alpha
                    }
                }
            }
        }
        let image = try Image(width: header.width, height: header.height, pixels: pixels, hasAlpha: hasAlpha)
        return partial ? image.withAlphaScanned() : image
    }
}
