// MARK: - JPEG header

/// Walks JPEG markers up to the first start-of-frame, collecting the EXIF orientation from
/// the first EXIF block (as browsers and exiftool do), which may also come after the frame
/// header: then the walk goes on to the image data (SOS). Without an EXIF orientation, the XMP
/// packet's `tiff:Orientation` counts (as Pillow reads it).
enum JPEGHeaderParser {
    static func parse(_ r: ByteReader) throws -> ImageHeader {
        var orientation = Orientation.up
        var sawExif = false
        var exifOrientation: Orientation?, xmpOrientation: Orientation?
        var header: ImageHeader?
        do {
            try walkSegments(r) { segment in
                let (marker, offset, length) = (segment.marker, segment.offset, segment.length)
                if isStartOfFrame(marker), header == nil {
                    guard let height = r.u16be(offset + 3), let width = r.u16be(offset + 5) else {
                        throw truncated("in the frame header")
                    }
                    let progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                    header = ImageHeader(
                        format: .jpeg, width: width, height: height, orientation: orientation,
                        hasAlpha: false, isProgressive: progressive,
                        codedSamplesPerPixel: codedSamplesPerPixel(r, frameHeaderAt: offset, length: length))
                    return !sawExif
                }
                if marker == 0xE1, !sawExif, let payload = r.slice(offset + 2, length - 2),
                    ByteReader(payload).starts(with: "Exif\0\0", at: 0) {
                    sawExif = true
                    exifOrientation = TIFFStructure.orientationTag(inExif: payload)
                    orientation = exifOrientation ?? .up
                    header?.orientation = orientation
                    return header == nil
                }
                if marker == 0xE1, xmpOrientation == nil, let payload = r.slice(offset + 2, length - 2),
                    ByteReader(payload).starts(with: ImageMetadata.xmpSignature, at: 0) {
                    xmpOrientation = XMPOrientation.read(Array(payload.dropFirst(ImageMetadata.xmpSignature.utf8.count)))
                }
                return true
            }
        } catch where header != nil {
            // Damage after the frame header, found only while looking for a late EXIF block,
            // is the decoder's to report.
        }
        guard var header else {
            throw DarkroomError.corrupt(.jpeg, detail: "no frame header (SOF) before the image data")
        }
        header.orientation = exifOrientation ?? xmpOrientation ?? .up
        return header
    }

    // MARK: - Segments

    /// A marker segment: its marker (the byte after 0xFF), the offset of its two-byte length,
    /// and that length (which counts itself).
    struct Segment {
        var marker: Int
        var offset: Int
        var length: Int
    }

    /// Calls `visit` with each marker segment after SOI, in file order, until it returns `false`
    /// or the image data (SOS) or EOI is reached. Fill bytes and markers without a length are
    /// skipped. Shared by the header parser and ``EmbeddedICCProfile``.
    /// - Throws: ``DarkroomError`` when a marker is expected and another byte is found, or the
    ///   data ends inside a marker or a length.
    static func walkSegments(_ r: ByteReader, _ visit: (Segment) throws -> Bool) throws {
        var offset = 2
        while true {
            // Every marker starts with 0xFF. Stray bytes before it are skipped, as libjpeg does
            // (it warns of "extraneous bytes before marker" and decodes the file).
            guard var ff = r.u8(offset) else { throw truncated("before the frame header (SOF)") }
            while ff != 0xFF {
                offset += 1
                guard let next = r.u8(offset) else { throw truncated("before the frame header (SOF)") }
                ff = next
            }
            var marker = 0xFF
            while marker == 0xFF {
                offset += 1
                guard let next = r.u8(offset) else { throw truncated("inside a marker") }
                marker = next
            }
            offset += 1
            // Markers without a length.
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 || marker == 0xDA { return }
            guard let length = r.u16be(offset) else { throw truncated("in a segment length") }
            guard length >= 2 else {
                throw DarkroomError.corrupt(.jpeg, detail: "segment length \(length) at byte \(offset)")
            }
            guard try visit(Segment(marker: marker, offset: offset, length: length)) else { return }
            offset += length
        }
    }

    /// Σ(Hᵢ·Vᵢ) / (Hmax·Vmax) over the frame's components; `nil` when the frame header is
    /// short or a sampling factor is outside 1...4 (the decoder reports such files).
    private static func codedSamplesPerPixel(_ r: ByteReader, frameHeaderAt offset: Int, length: Int) -> Double? {
        guard let count = r.u8(offset + 7), count > 0, length >= 8 + 3 * count else { return nil }
        var samples = 0, maxH = 1, maxV = 1
        for index in 0..<count {
            guard let packed = r.u8(offset + 9 + 3 * index) else { return nil }
            let h = packed >> 4, v = packed & 0x0F
            guard (1...4).contains(h), (1...4).contains(v) else { return nil }
            samples += h * v
            maxH = max(maxH, h)
            maxV = max(maxV, v)
        }
        return Double(samples) / Double(maxH * maxV)
    }

    private static func isStartOfFrame(_ marker: Int) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    private static func truncated(_ where_: String) -> DarkroomError {
        .truncated(.jpeg, detail: "the data ends \(where_)")
    }

    private static func hex(_ v: Int) -> String { String(v, radix: 16, uppercase: true) }
}

// MARK: - PNG header

/// Reads IHDR and scans the chunks before the image data for `tRNS` and `eXIf`.
enum PNGHeaderParser {
    static func parse(_ r: ByteReader) throws -> ImageHeader {
        guard r.count >= 33 else { throw DarkroomError.truncated(.png, detail: "IHDR needs 33 bytes, got \(r.count)") }
        guard r.fourCC(12) == "IHDR", let width = r.u32be(16), let height = r.u32be(20),
            let colorType = r.u8(25)
        else {
            throw DarkroomError.corrupt(.png, detail: "the first chunk is not IHDR")
        }
        guard width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw DarkroomError.corrupt(.png, detail: "IHDR gives \(width)×\(height); PNG sides are at most 2147483647")
        }
        var hasAlpha = colorType == 4 || colorType == 6
        var sources = OrientationSources()
        var offset = 33
        // Walk ancillary chunks until the first IDAT; stop quietly if a chunk header is cut.
        while let length = r.u32be(offset), let type = r.fourCC(offset + 4), type != "IDAT", type != "IEND" {
            // A chunk longer than the data left is refused here: libpng would first allocate
            // (and zero) whatever the length field claims, up to 2 GiB.
            guard length <= r.count - offset - 12 else {
                let name = String(type.map { $0.isASCII && $0.isLetter ? $0 : "?" })
                throw DarkroomError.truncated(
                    .png, detail: "the \(name) chunk claims \(length) bytes, but only \(max(0, r.count - offset - 12)) follow it")
            }
            if type == "tRNS" { hasAlpha = true }
            if let payload = r.slice(offset + 8, length) { sources.read(type, payload) }
            offset += 12 + length
        }
        // eXIf and text chunks may also follow the image data (Pillow reads them there too):
        // walk the chunk headers to IEND, quietly, unless EXIF already said.
        // Types compared as numbers: a large file has thousands of IDAT chunks to step over.
        let afterImageData: Set<Int> = [0x6558_4966, 0x7445_5874, 0x7A54_5874, 0x6954_5874]  // eXIf tEXt zTXt iTXt
        while sources.exif == nil, let length = r.u32be(offset), let code = r.u32be(offset + 4), code != 0x4945_4E44,  // IEND
            offset + 12 + length <= r.count
        {
            if afterImageData.contains(code), let type = r.fourCC(offset + 4), let payload = r.slice(offset + 8, length) {
                sources.read(type, payload)
            }
            offset += 12 + length
        }
        return ImageHeader(format: .png, width: width, height: height, orientation: sources.orientation, hasAlpha: hasAlpha)
    }

    /// A PNG's orientation sources, in Pillow's precedence: `eXIf`, then ImageMagick's raw EXIF
    /// profile in a text chunk, then XMP's `tiff:Orientation`.
    struct OrientationSources {
        var exif: Orientation?
        var rawProfile: Orientation?
        var xmp: Orientation?

        var orientation: Orientation { exif ?? rawProfile ?? xmp ?? .up }

        mutating func read(_ type: String, _ payload: UnsafeRawBufferPointer) {
            if type == "eXIf", exif == nil {
                exif = TIFFStructure.orientationTag(inExif: payload)
                return
            }
            // Text is inflated only while it can still decide the orientation.
            guard ["tEXt", "zTXt", "iTXt"].contains(type), rawProfile == nil, let keyword = PNGTextChunk.keyword(payload),
                RawProfile.exifKeywords.contains(keyword) || (keyword == ImageMetadata.pngXMPKeyword && xmp == nil),
                let (_, text) = PNGTextChunk.read(type: type, payload)
            else { return }
            if keyword == ImageMetadata.pngXMPKeyword {
                xmp = XMPOrientation.read(text)
            } else if let profile = RawProfile.bytes(text) {
                rawProfile = profile.withUnsafeBytes { TIFFStructure.orientationTag(inExif: $0) }
            }
        }
    }
}

// MARK: - WebP header

/// Reads the VP8/VP8L/VP8X chunk and any EXIF chunk of a RIFF WebP file.
enum WebPHeaderParser {
    static func parse(_ r: ByteReader) throws -> ImageHeader {
        guard let chunk = r.fourCC(12) else { throw DarkroomError.truncated(.webp, detail: "no chunk after the RIFF header") }
        switch chunk {
        case "VP8 ":
            guard let w = r.u16le(26), let h = r.u16le(28) else { throw truncated("VP8 frame header") }
            guard r.u8(23) == 0x9D, r.u8(24) == 0x01, r.u8(25) == 0x2A else {
                throw DarkroomError.corrupt(.webp, detail: "bad VP8 start code")
            }
            return ImageHeader(format: .webp, width: w & 0x3FFF, height: h & 0x3FFF, hasAlpha: false, frameCount: 1)
        case "VP8L":
            guard r.u8(20) == 0x2F, let bits = r.u32le(21) else { throw truncated("VP8L header") }
            let w = (bits & 0x3FFF) + 1, h = ((bits >> 14) & 0x3FFF) + 1
            return ImageHeader(format: .webp, width: w, height: h, hasAlpha: (bits >> 28) & 1 == 1, frameCount: 1)
        case "VP8X":
            guard let flags = r.u8(20), let w = r.u24le(24), let h = r.u24le(27) else { throw truncated("VP8X header") }
            let animated = flags & 0x02 != 0
            return ImageHeader(
                format: .webp, width: w + 1, height: h + 1, orientation: exifOrientation(r),
                hasAlpha: flags & 0x10 != 0, frameCount: animated ? animationFrames(r) : 1)
        default:
            throw DarkroomError.corrupt(.webp, detail: "unknown first chunk '\(chunk)'")
        }
    }

    /// The `ANMF` chunks of an animated file (inside the RIFF container), at least 1.
    static func animationFrames(_ r: ByteReader) -> Int {
        let end = min(r.count, (r.u32le(4) ?? 0) + 8)
        var offset = 12
        var frames = 0
        while let type = r.fourCC(offset), let size = r.u32le(offset + 4), offset + 8 <= end, size <= end - offset - 8 {
            if type == "ANMF" { frames += 1 }
            offset += 8 + size + (size & 1)
        }
        return max(1, frames)
    }

    /// The `EXIF` chunk's orientation, else the `XMP ` chunk's `tiff:Orientation`.
    private static func exifOrientation(_ r: ByteReader) -> Orientation {
        var offset = 12
        var xmp: Orientation?
        while let type = r.fourCC(offset), let length = r.u32le(offset + 4) {
            if type == "EXIF", let payload = r.slice(offset + 8, length) {
                if let tagged = TIFFStructure.orientationTag(inExif: payload) { return tagged }
            } else if type == "XMP ", xmp == nil, let payload = r.slice(offset + 8, length) {
                xmp = XMPOrientation.read(Array(payload))
            }
            offset += 8 + length + (length & 1)
        }
        return xmp ?? .up
    }

    private static func truncated(_ what: String) -> DarkroomError {
        .truncated(.webp, detail: "the data ends inside the \(what)")
    }
}
