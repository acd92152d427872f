// MARK: - Reading metadata from a container

extension ImageMetadata {
    /// The JPEG APP1 signature of an XMP packet (and PNG's iTXt keyword is its own).
    static let xmpSignature = "http://ns.adobe.com/xap/1.0/\0"
    /// PNG's iTXt keyword for an XMP packet.
    static let pngXMPKeyword = "XML:com.adobe.xmp"

    /// Reads the EXIF block, XMP packet and ICC profile `bytes` stores, for the containers
    /// Swift reads directly:
    ///
    /// | format | EXIF | XMP | ICC |
    /// | --- | --- | --- | --- |
    /// | JPEG | APP1 `Exif` | APP1 XMP | APP2 `ICC_PROFILE` |
    /// | PNG | `eXIf` | `iTXt` `XML:com.adobe.xmp` (inflated when compressed) | from the PNG decoder (`iCCP`, through libpng) |
    /// | WebP | `EXIF` | `XMP ` | `ICCP` |
    /// | AVIF, HEIF | the `Exif` item | the XMP `mime` item | `colr` |
    /// | TIFF | — | — | the `ICCProfile` field |
    ///
    /// Damaged or missing parts are `nil`; reading never throws. The first of repeated parts wins.
    ///
    /// ```swift
    /// let metadata = ImageMetadata(reading: bytes, format: .webp)
    /// ```
    public init(reading bytes: [UInt8], format: ImageFormat) {
        self.init(iccProfile: EmbeddedICCProfile.bytes(in: bytes, format: format))
        bytes.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            switch format {
            case .jpeg: readJPEG(r)
            case .png: readPNG(r)
            case .webp: readWebP(r)
            case .avif, .heif: readISOBMFF(r)
            default: break
            }
        }
    }

    /// An EXIF payload as a TIFF structure: JPEG's `Exif\0\0` prefix, which some writers also
    /// put in PNG and WebP chunks, removed.
    private static func tiffStructure(_ payload: UnsafeRawBufferPointer) -> [UInt8] {
        let r = ByteReader(payload)
        return Array(r.starts(with: "Exif\0\0", at: 0) ? payload[6...] : payload[...])
    }

    // MARK: - JPEG

    private mutating func readJPEG(_ r: ByteReader) {
        var exif: [UInt8]?, xmp: [UInt8]?
        try? JPEGHeaderParser.walkSegments(r) { segment in
            guard segment.marker == 0xE1 else { return true }
            let start = segment.offset + 2, length = segment.length - 2
            if exif == nil, r.starts(with: "Exif\0\0", at: start), let payload = r.slice(start + 6, length - 6) {
                exif = Array(payload)
            } else if xmp == nil, r.starts(with: Self.xmpSignature, at: start),
                let payload = r.slice(start + Self.xmpSignature.utf8.count, length - Self.xmpSignature.utf8.count)
            {
                xmp = Array(payload)
            }
            return true
        }
        self.exif = exif
        self.xmp = xmp
    }

    // MARK: - PNG

    private mutating func readPNG(_ r: ByteReader) {
        guard r.u32be(0) == 0x8950_4E47, r.u32be(4) == 0x0D0A_1A0A else { return }
        var offset = 8
        while let length = r.u32be(offset), let type = r.fourCC(offset + 4), type != "IEND" {
            guard let data = r.slice(offset + 8, length) else { return }
            if type == "eXIf", exif == nil {
                exif = Self.tiffStructure(data)
            } else if type == "iTXt", xmp == nil, PNGTextChunk.keyword(data) == Self.pngXMPKeyword {
                xmp = PNGTextChunk.read(type: type, data)?.text
            }
            offset += 12 + length
        }
    }

    // MARK: - WebP

    private mutating func readWebP(_ r: ByteReader) {
        guard r.starts(with: "RIFF", at: 0), r.starts(with: "WEBP", at: 8) else { return }
        var offset = 12
        while let type = r.fourCC(offset), let size = r.u32le(offset + 4), let data = r.slice(offset + 8, size) {
            if type == "EXIF", exif == nil { exif = Self.tiffStructure(data) }
            if type == "XMP ", xmp == nil { xmp = Array(data) }
            offset += 8 + size + (size & 1)
        }
    }

    // MARK: - AVIF / HEIF

    private mutating func readISOBMFF(_ r: ByteReader) {
        let parts = Self.isobmffParts(r)
        exif = parts.exif
        xmp = parts.xmp
    }

    /// The first `Exif` item's TIFF structure and the first XMP `mime` item of an AVIF or HEIF file.
    static func isobmffParts(_ r: ByteReader) -> (exif: [UInt8]?, xmp: [UInt8]?) {
        typealias Parser = ISOBMFFHeaderParser
        var exif: [UInt8]?, xmp: [UInt8]?
        guard let meta = Parser.findBox("meta", in: r, from: 0, to: r.count),
            let locations = try? Parser.itemLocations(meta: meta, in: r, format: .avif)
        else { return (nil, nil) }
        for location in locations {
            guard let type = Parser.itemType(of: location.id, meta: meta, in: r),
                let extent = Parser.firstExtent(of: location.id, meta: meta, in: r),
                let data = r.slice(extent.lowerBound, extent.count)
            else { continue }
            let item = ByteReader(data)
            if type == "Exif", exif == nil {
                // ISO/IEC 23008-12 A.2.1: a 32-bit offset to the TIFF header, then the block.
                guard let skip = item.u32be(0), let body = item.slice(4 + skip, data.count - 4 - skip) else { continue }
                exif = tiffStructure(body)
            } else if type == "mime", xmp == nil, item.starts(with: "<?xpacket", at: 0) || item.starts(with: "<x:xmpmeta", at: 0) {
                xmp = Array(data)
            }
        }
        return (exif, xmp)
    }
}
