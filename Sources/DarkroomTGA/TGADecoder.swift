import DarkroomCore

// MARK: - TGADecoder

/// Decodes Truevision TGA in pure Swift: every image type and depth of the specification.
///
/// Reads:
/// - **Image types:** colour-mapped (1), true-colour (2) and greyscale (3), each raw or
///   run-length encoded (9, 10, 11); run-length packets may cross rows, as writers emit them.
/// - **Depths:** 15, 16, 24 and 32-bit colour (B, G, R, A; 5 bits scaled to 8 with rounding),
///   8-bit grey and 16-bit grey with alpha, 8 and 16-bit colour-map indices into maps of 15, 16,
///   24 or 32-bit entries starting at any first index.
/// - **Origins:** all four (descriptor bits 4 and 5: right-to-left, top-to-bottom).
/// - **Alpha:** the TGA 2.0 extension area's attributes type decides when present (0–2: none,
///   3: alpha, 4: premultiplied, which is undone); otherwise the stored alpha (the 16-bit
///   attribute bit when the descriptor counts alpha bits, the fourth byte of 32-bit values, grey's
///   second byte) is alpha unless every pixel's is zero — writers that leave it zero mean opaque,
///   as ImageMagick and browsers take it for BMP. `hasAlpha` is `true` only when some pixel is
///   translucent.
///
/// Refused with a `DarkroomError`: a header or pixel data cut short (`.truncated`), an
/// impossible depth, type or colour map, or an index outside the map (`.corrupt`, naming the
/// pixel), a zero side (`.invalidDimensions`). Limits are checked on the caller's header and on
/// this decoder's own reading of the size before any pixel memory is allocated; raw data must
/// hold every pixel before it is read. Size hints are ignored: every decode is full size.
///
/// ```swift
/// let header = try ImageProbe.probe(bytes)
/// let image = try TGADecoder().decode(bytes, header: header, options: DecodeOptions())
/// ```
public struct TGADecoder: ImageDecoder {
    public let name = "darkroom-tga"

    /// The decoder (it holds no state; one value may serve every thread).
    public init() {}

    /// `true` for TGA headers.
    public func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool { header.format == .tga }

    /// `nil`: every decode is full size, whatever the hint.
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? { nil }

    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try options.checkLimits(byteCount: bytes.count, header: header)
        let image = try bytes.withUnsafeBytes { raw in try Self.decodeStored(ByteReader(raw), options: options) }
        return options.orient(image, header: header)
    }

    // MARK: - Decoding

    private static func decodeStored(_ file: ByteReader, options: DecodeOptions) throws -> Image {
        let header = try TGAHeader(file)
        try options.limits.check(ImageHeader(format: .tga, width: header.width, height: header.height))
        let pixelCount = header.width * header.height  // both ≤ 65535: no overflow
        let stride = header.bytesPerPixel
        // Pixels the file holds (in file order); the rest stay transparent black when
        // `options.failOn` lets a cut file through.
        var present = pixelCount
        if !header.isRunLength, pixelCount * stride > file.count - header.pixelOffset {
            let detail = "the pixel data needs \(pixelCount * stride) bytes, the file has \(file.count - header.pixelOffset)"
            if options.stops(on: .truncated, warning: DecodeWarning(format: .tga, damage: .truncated, detail: detail)) {
                throw DarkroomError.truncated(.tga, detail: detail)
            }
            present = (file.count - header.pixelOffset) / stride
        }
        let values = try TGAPixels(header: header, file: file)
        let byteCount = pixelCount * Image.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: byteCount)
        let hasAlpha = try pixels.withUnsafeMutableBytes { out in
            let put = { (index: Int, color: RGBA) in
                let row = index / header.width, column = index % header.width
                let y = header.isTopDown ? row : header.height - 1 - row
                let x = header.isRightToLeft ? header.width - 1 - column : column
                let at = (y * header.width + x) * 4
                out[at] = color.r
                out[at + 1] = color.g
                out[at + 2] = color.b
                out[at + 3] = color.a
            }
            if header.isRunLength {
                present = try readRunLength(file, header: header, values: values, options: options, put: put)
            } else {
                for index in 0..<present {
                    put(index, try values.rgba(file.bytes, at: header.pixelOffset + index * stride, pixel: index))
                }
            }
            var hasAlpha = resolveAlpha(out, header: header)
            if present < pixelCount {
                // The alpha rule may have made every pixel opaque: the missing ones are not.
                for index in present..<pixelCount { put(index, RGBA(r: 0, g: 0, b: 0, a: 0)) }
                hasAlpha = true
            }
            return hasAlpha
        }
        return try Image(width: header.width, height: header.height, pixels: pixels, hasAlpha: hasAlpha)
    }

    /// Run-length packets: a byte whose top bit says "repeat one value" or "this many values",
    /// and whose low 7 bits are the count less one. A packet running past the last pixel is cut.
    /// Returns the pixels written: all of them, or (data cut short, `options.failOn` letting it
    /// through) those before the cut.
    private static func readRunLength(
        _ file: ByteReader, header: TGAHeader, values: TGAPixels, options: DecodeOptions, put: (Int, RGBA) -> Void
    ) throws -> Int {
        let total = header.width * header.height
        var index = 0
        do {
            try readRuns(file, header: header, values: values, index: &index, put: put)
            return total
        } catch let DarkroomError.truncated(format, detail) {
            if options.stops(on: .truncated, warning: DecodeWarning(format: format, damage: .truncated, detail: detail)) {
                throw DarkroomError.truncated(format, detail: detail)
            }
            return index
        }
    }

    private static func readRuns(
        _ file: ByteReader, header: TGAHeader, values: TGAPixels, index: inout Int, put: (Int, RGBA) -> Void
    ) throws {
        let total = header.width * header.height, stride = header.bytesPerPixel
        var at = header.pixelOffset
        while index < total {
            guard at < file.count else { throw truncatedRuns(index, of: total) }
            let packet = Int(file.bytes[at])
            at += 1
            let count = min((packet & 0x7F) + 1, total - index)
            if packet & 0x80 != 0 {
                guard at + stride <= file.count else { throw truncatedRuns(index, of: total) }
                let color = try values.rgba(file.bytes, at: at, pixel: index)
                at += stride
                for _ in 0..<count {
                    put(index, color)
                    index += 1
                }
            } else {
                guard at + count * stride <= file.count else { throw truncatedRuns(index, of: total) }
                for _ in 0..<count {
                    put(index, try values.rgba(file.bytes, at: at, pixel: index))
                    at += stride
                    index += 1
                }
            }
        }
    }

    private static func truncatedRuns(_ index: Int, of total: Int) -> DarkroomError {
        .truncated(.tga, detail: "the run-length data ends after \(index) of \(total) pixels")
    }

    // MARK: - Alpha

    /// Applies the alpha rule (see the type's documentation) and says whether a pixel is translucent.
    private static func resolveAlpha(_ p: UnsafeMutableRawBufferPointer, header: TGAHeader) -> Bool {
        let storesAlpha: Bool = switch header.kind {
        case .trueColor: header.depth == 32 || (header.depth == 16 && header.alphaBits > 0)
        case .grey: header.depth == 16
        case .colorMapped: header.mapEntryBits == 32 || (header.mapEntryBits == 16 && header.alphaBits > 0)
        }
        do {
            var anyNonZero = false, anyTranslucent = false
            for i in stride(from: 3, to: p.count, by: 4) {
                anyNonZero = anyNonZero || p[i] != 0
                anyTranslucent = anyTranslucent || p[i] != 255
            }
            let keeps: Bool = switch header.alphaUse {
            case .none: false
            case .straight, .premultiplied: storesAlpha
            case .unspecified: storesAlpha && anyNonZero
            }
            guard keeps, anyTranslucent else {
                for i in stride(from: 3, to: p.count, by: 4) { p[i] = 255 }
                return false
            }
            if header.alphaUse == .premultiplied {
                for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] != 255 {
                    let a = Int(p[i + 3])
                    for c in i..<(i + 3) { p[c] = a == 0 ? 0 : UInt8(min(255, (Int(p[c]) * 255 + a / 2) / a)) }
                }
            }
            return true
        }
    }
}
