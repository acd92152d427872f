import DarkroomCore

// MARK: - BMPHeader

/// Everything the pixel readers need from a BMP's file header, DIB header, bit masks and
/// palette, read and validated without touching the pixel data.
///
/// Layout (all little-endian): the 14-byte file header (`BM`, file size, reserved, pixel data
/// offset at byte 10), then the DIB header, whose first 4 bytes give its size (byte 14), then
/// the BI_BITFIELDS masks of a 40-byte header, then the palette, then (at the offset) pixels.
///
/// ```swift
/// let header = try BMPHeader(ByteReader(raw))
/// print(header.kind, header.bitCount, header.compression)  // V5 32 BI_BITFIELDS
/// ```
struct BMPHeader {
    var kind: Kind
    var width: Int
    /// The magnitude of the stored height.
    var height: Int
    /// A negative stored height: the first row in the file is the top one.
    var isTopDown: Bool
    var bitCount: Int
    var compression: Compression
    /// Where each channel sits in a 16- or 32-bit pixel; `nil` for other depths.
    var masks: BMPMasks?
    /// Opaque RGBA8 colours packed as ``BMPCanvas/pack(_:_:_:_:)`` does; empty above 8 bits.
    var palette: [UInt32]
    /// The pixel data offset from the file header (validated to lie inside the file).
    var dataOffset: Int

    // MARK: - Kinds

    /// The DIB header variants, named by what writes them.
    enum Kind: String, CustomStringConvertible {
        case core = "BITMAPCOREHEADER (OS/2 1.x)"
        case os2 = "OS/2 2.x"
        case info = "BITMAPINFOHEADER"
        case v2 = "BITMAPV2INFOHEADER"
        case v3 = "BITMAPV3INFOHEADER"
        case v4 = "BITMAPV4HEADER"
        case v5 = "BITMAPV5HEADER"

        /// The kind a DIB header size names: 12, 40, 52, 56, 108, 124, or 16…64 for OS/2 2.x
        /// (whose headers may stop after any field; the missing fields are zero).
        init?(headerSize: Int) {
            switch headerSize {
            case 12: self = .core
            case 40: self = .info
            case 52: self = .v2
            case 56: self = .v3
            case 108: self = .v4
            case 124: self = .v5
            case 16...64: self = .os2
            default: return nil
            }
        }

        var description: String { rawValue }
    }

    /// The pixel encodings this decoder reads (others are refused while parsing).
    enum Compression: String, CustomStringConvertible {
        case rgb = "BI_RGB"
        case rle8 = "BI_RLE8"
        case rle4 = "BI_RLE4"
        case bitfields = "BI_BITFIELDS"
        case alphaBitfields = "BI_ALPHABITFIELDS"

        var description: String { rawValue }
    }

    // MARK: - Parsing

    /// Reads and validates the headers of `file`.
    /// - Throws: ``DarkroomError`` — `.truncated` when the headers or palette are cut short,
    ///   `.corrupt` for a bad header size, offset, depth or compression, `.invalidDimensions`
    ///   for a zero or negative width or a zero height, and `.unsupportedFormat` for
    ///   JPEG/PNG-in-BMP, CMYK and OS/2 Huffman/RLE24 compression.
    init(_ file: ByteReader) throws {
        guard file.count >= 18, let offset = file.u32le(10), let headerSize = file.u32le(14) else {
            throw DarkroomError.truncated(.bmp, detail: "the file and DIB header sizes need 18 bytes, got \(file.count)")
        }
        guard file.u8(0) == 0x42, file.u8(1) == 0x4D else {
            throw DarkroomError.corrupt(.bmp, detail: "the file does not start with the signature 'BM'")
        }
        guard let kind = Kind(headerSize: headerSize) else {
            throw DarkroomError.corrupt(
                .bmp, detail: "the DIB header size \(headerSize) is none of BMP's (12, 16…64, 108 or 124 bytes)")
        }
        guard file.count >= 14 + headerSize else {
            throw DarkroomError.truncated(
                .bmp, detail: "the \(kind) header needs \(14 + headerSize) bytes, the file has \(file.count)")
        }
        self.kind = kind
        // A field of the DIB header at `at` (from its start), zero when an OS/2 2.x header stops earlier.
        func field32(_ at: Int) -> Int { at + 4 <= headerSize ? file.u32le(14 + at) ?? 0 : 0 }

        let storedWidth: Int, storedHeight: Int, rawCompression: Int, colorsUsed: Int
        if kind == .core {
            storedWidth = file.u16le(18) ?? 0
            storedHeight = file.u16le(20) ?? 0
            bitCount = file.u16le(24) ?? 0
            rawCompression = 0
            colorsUsed = 0
        } else {
            storedWidth = Int(Int32(truncatingIfNeeded: field32(4)))
            storedHeight = Int(Int32(truncatingIfNeeded: field32(8)))
            bitCount = file.u16le(28) ?? 0
            rawCompression = field32(16)
            colorsUsed = field32(32)
        }
        guard storedWidth > 0, storedHeight != 0 else {
            throw DarkroomError.invalidDimensions(.bmp, width: storedWidth, height: storedHeight)
        }
        width = storedWidth
        height = abs(storedHeight)
        isTopDown = storedHeight < 0
        compression = try Self.compression(rawCompression, kind: kind, bitCount: bitCount)

        // Masks: in the header from V2 on, else in the 12 (16 for alpha) bytes after a 40-byte one.
        var headersEnd = 14 + headerSize
        masks = nil
        palette = []
        dataOffset = offset
        switch compression {
        case .bitfields, .alphaBitfields:
            let inHeader = [Kind.v2, .v3, .v4, .v5].contains(kind)
            let maskCount = inHeader ? (kind == .v2 ? 3 : 4) : (compression == .alphaBitfields ? 4 : 3)
            let maskStart = inHeader ? 54 : headersEnd
            if !inHeader { headersEnd += 4 * maskCount }
            let values = (0..<maskCount).map { file.u32le(maskStart + 4 * $0) }
            let read = values.compactMap { $0 }
            guard read.count == maskCount else {
                throw DarkroomError.truncated(
                    .bmp, detail: "the \(compression) masks need \(maskStart + 4 * maskCount) bytes, the file has \(file.count)")
            }
            masks = try BMPMasks(red: read[0], green: read[1], blue: read[2], alpha: maskCount == 4 ? read[3] : 0, bitCount: bitCount)
        case .rgb where bitCount == 16:
            masks = BMPMasks.rgb555
        case .rgb where bitCount == 32:
            masks = BMPMasks.bgra
        default:
            break
        }

        guard offset >= headersEnd else {
            throw DarkroomError.corrupt(
                .bmp, detail: "the pixel data offset \(offset) points inside the headers, which end at byte \(headersEnd)")
        }
        guard offset < file.count else {
            throw DarkroomError.truncated(
                .bmp, detail: "the pixel data starts at byte \(offset), past the end of the \(file.count)-byte file")
        }
        if bitCount <= 8 {
            palette = try Self.palette(file, start: headersEnd, end: offset, bitCount: bitCount, colorsUsed: colorsUsed, kind: kind)
        }
    }

    // MARK: - Compression and depth

    /// The compression a header's value names, checked against its bit depth.
    private static func compression(_ raw: Int, kind: Kind, bitCount: Int) throws -> Compression {
        let compression: Compression
        switch raw {
        case 0: compression = .rgb
        case 1: compression = .rle8
        case 2: compression = .rle4
        case 3 where kind == .os2:
            throw DarkroomError.unsupportedFormat(.bmp, reason: "OS/2 Huffman 1D compression (fax-style 1-bit coding) is not implemented")
        case 3: compression = .bitfields
        case 4 where kind == .os2:
            throw DarkroomError.unsupportedFormat(.bmp, reason: "OS/2 RLE24 compression is not implemented")
        case 4:
            throw DarkroomError.unsupportedFormat(
                .bmp, reason: "the pixels are an embedded JPEG stream (BI_JPEG), which is meant for printer drivers; convert the file to a plain BMP or JPEG")
        case 5:
            throw DarkroomError.unsupportedFormat(
                .bmp, reason: "the pixels are an embedded PNG stream (BI_PNG), which is meant for printer drivers; convert the file to a plain BMP or PNG")
        case 6: compression = .alphaBitfields
        case 11, 12, 13:
            throw DarkroomError.unsupportedFormat(.bmp, reason: "CMYK bitmaps (compression \(raw)) are not implemented")
        default:
            throw DarkroomError.corrupt(.bmp, detail: "unknown compression \(raw)")
        }
        let depths: [Int]
        switch compression {
        case .rgb: depths = [1, 2, 4, 8, 16, 24, 32]
        case .rle8: depths = [8]
        case .rle4: depths = [4]
        case .bitfields, .alphaBitfields: depths = [16, 32]
        }
        guard depths.contains(bitCount) else {
            let allowed = depths.map(String.init).joined(separator: ", ")
            throw DarkroomError.corrupt(
                .bmp, detail: "\(compression) needs \(allowed) bits per pixel, the header says \(bitCount)")
        }
        return compression
    }

    // MARK: - Palette

    /// The colour table between the headers and the pixel data: `colorsUsed` entries (all
    /// 2^bits when 0, never more), fewer when the pixel data starts sooner. BGR entries for
    /// OS/2 1.x, BGR0 otherwise; the fourth byte is ignored (palette colours are opaque).
    private static func palette(
        _ file: ByteReader, start: Int, end: Int, bitCount: Int, colorsUsed: Int, kind: Kind
    ) throws -> [UInt32] {
        let entrySize = kind == .core ? 3 : 4
        let maximum = 1 << bitCount
        let declared = colorsUsed == 0 ? maximum : min(colorsUsed, maximum)
        let count = min(declared, (end - start) / entrySize)
        guard count > 0 else {
            throw DarkroomError.corrupt(.bmp, detail: "the \(bitCount)-bit image has no palette before its pixel data")
        }
        return (0..<count).map { index in
            let at = start + index * entrySize
            let blue = file.u8(at) ?? 0, green = file.u8(at + 1) ?? 0, red = file.u8(at + 2) ?? 0
            return BMPCanvas.pack(UInt8(red), UInt8(green), UInt8(blue), 255)
        }
    }
}
