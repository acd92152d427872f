// MARK: - ImageProbe

/// Reads format, stored size, EXIF orientation and a few flags from an image's header
/// without decoding any pixels. Costs microseconds, so it runs before every decode and
/// lets ``DecodeLimits`` refuse a 40000×40000 "bomb" before a byte of pixels is allocated.
///
/// ```swift
/// let header = try ImageProbe.probe(bytes)   // ImageHeader(format: .jpeg, width: 2560, …)
/// try DecodeLimits().check(header)
/// ```
public enum ImageProbe {
    /// Probes `bytes`.
    /// - Throws: ``DarkroomError/emptyInput``, ``DarkroomError/unrecognizedFormat(hint:)``,
    ///   ``DarkroomError/truncated(_:detail:)`` when the header is cut short,
    ///   ``DarkroomError/corrupt(_:detail:)`` when it is malformed, and
    ///   ``DarkroomError/invalidDimensions(_:width:height:)`` for a zero size.
    public static func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageHeader {
        let format = try ImageFormat.detect(bytes)
        let r = ByteReader(bytes)
        let header: ImageHeader
        switch format {
        case .jpeg: header = try JPEGHeaderParser.parse(r)
        case .png: header = try PNGHeaderParser.parse(r)
        case .gif:
            var gif = try simpleHeader(r, .gif, widthAt: 6, heightAt: 8, le16: true, minimum: 10)
            gif.frameCount = max(1, GIFBlockWalk.scan(r).frames)
            header = gif
        case .webp: header = try WebPHeaderParser.parse(r)
        case .tiff: header = try tiff(r)
        case .bmp: header = try bmp(r)
        case .tga: header = try tga(r)
        case .avif, .heif: header = try ISOBMFFHeaderParser.parse(r, format: format)
        }
        guard header.width > 0, header.height > 0 else {
            throw DarkroomError.invalidDimensions(format, width: header.width, height: header.height)
        }
        return header
    }

    /// Probes an array of bytes.
    public static func probe(_ bytes: [UInt8]) throws -> ImageHeader {
        try bytes.withUnsafeBytes { try probe($0) }
    }

    // MARK: - Small formats

    private static func simpleHeader(
        _ r: ByteReader, _ format: ImageFormat, widthAt: Int, heightAt: Int, le16: Bool, minimum: Int
    ) throws -> ImageHeader {
        guard r.count >= minimum, let w = r.u16le(widthAt), let h = r.u16le(heightAt) else {
            throw DarkroomError.truncated(format, detail: "header needs \(minimum) bytes, got \(r.count)")
        }
        return ImageHeader(format: format, width: w, height: h)
    }

    private static func tiff(_ r: ByteReader) throws -> ImageHeader {
        guard let fields = TIFFStructure.readIFD0(r.bytes) else {
            throw DarkroomError.truncated(.tiff, detail: "the first image directory is missing or cut short")
        }
        guard let w = fields.width, let h = fields.height else {
            throw DarkroomError.corrupt(.tiff, detail: "the first image directory has no width/height tags")
        }
        var header = ImageHeader(format: .tiff, width: w, height: h, orientation: fields.orientation)
        header.reducedResolutions = TIFFStructure.reducedResolutions(r.bytes, of: header.size)
        // libtiff inflates a whole tile to read any of it: a 16×16 image in one 32768² tile
        // decodes 1 GP, so the pixel limit must see the tile.
        if let tw = fields.tileWidth, let th = fields.tileLength,
            tw.multipliedFullWidth(by: th) > w.multipliedFullWidth(by: h)
        {
            header.codedSize = PixelSize(width: tw, height: th)
        }
        return header
    }

    private static func bmp(_ r: ByteReader) throws -> ImageHeader {
        guard let dibSize = r.u32le(14) else { throw DarkroomError.truncated(.bmp, detail: "no DIB header") }
        if dibSize == 12 {
            guard let w = r.u16le(18), let h = r.u16le(20), let bits = r.u16le(24) else {
                throw DarkroomError.truncated(.bmp, detail: "OS/2 header cut short")
            }
            return ImageHeader(format: .bmp, width: w, height: h, hasAlpha: bits == 32)
        }
        guard dibSize >= 16, let w32 = r.u32le(18), let h32 = r.u32le(22), let bits = r.u16le(28) else {
            throw DarkroomError.truncated(.bmp, detail: "DIB header cut short")
        }
        let width = Int(Int32(truncatingIfNeeded: w32)), height = Int(Int32(truncatingIfNeeded: h32))
        // A negative height means a top-down bitmap; the size is its magnitude.
        return ImageHeader(format: .bmp, width: width, height: abs(height), hasAlpha: bits == 32)
    }

    private static func tga(_ r: ByteReader) throws -> ImageHeader {
        guard let w = r.u16le(12), let h = r.u16le(14), let depth = r.u8(16), let descriptor = r.u8(17) else {
            throw DarkroomError.truncated(.tga, detail: "header needs 18 bytes")
        }
        return ImageHeader(format: .tga, width: w, height: h, hasAlpha: depth == 32 || (descriptor & 0x0F) > 0)
    }
}
