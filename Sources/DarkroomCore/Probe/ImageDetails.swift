// MARK: - ImageDetails

/// What `darkroom probe` reports beyond the header: bits per sample, the embedded colour
/// profile's name, and the frame count, read from the container without decoding pixels.
///
/// Unlike ``ImageProbe/probe(_:)-(UnsafeRawBufferPointer)`` (which runs before every decode and
/// reads only the first bytes), this walks the whole container where the answer is spread
/// through it (a GIF's frames, an animated WebP's `ANMF` chunks), so it is for inspecting files.
///
/// ```swift
/// let details = try ImageDetails(bytes)
/// print(details.header.format, details.bitDepth ?? 0, details.iccProfileName ?? "none", details.frameCount)
/// ```
public struct ImageDetails: Sendable, Hashable {
    /// The header ``ImageProbe`` reads (format, stored size, orientation).
    public var header: ImageHeader
    /// Whether pixels may be translucent: an alpha channel, a transparent palette entry or a
    /// `tRNS` chunk.
    public var hasAlpha: Bool
    /// Bits per sample as stored: 8 or 16 for PNG (1–8 for a palette or low-depth grey), 8 or
    /// 12 for JPEG, 8, 10 or 12 for AVIF/HEIF, the first `BitsPerSample` for TIFF; 8 for GIF and
    /// WebP. `nil` when the container does not say.
    public var bitDepth: Int?
    /// Whether an ICC profile is embedded.
    public var hasICCProfile: Bool
    /// The embedded profile's name: its `desc` text. For PNG, whose profile is compressed, it
    /// is the `iCCP` chunk's own profile name (often just "ICC Profile"); the PNG decoder's
    /// metadata (`ImageDecoder.metadata(in:header:)`) inflates the profile, whose `desc`
    /// `darkroom probe` prints.
    public var iccProfileName: String?
    /// How many frames the file holds: 1 for a still image; a TIFF's pages.
    public var frameCount: Int

    /// Reads the details of `bytes`.
    /// - Throws: what ``ImageProbe/probe(_:)-([UInt8])`` throws for an unreadable header.
    public init(_ bytes: [UInt8]) throws {
        header = try ImageProbe.probe(bytes)
        hasAlpha = header.hasAlpha ?? false
        frameCount = header.frameCount ?? 1
        hasICCProfile = false
        let format = header.format
        bytes.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            switch format {
            case .jpeg: bitDepth = Self.jpegPrecision(r)
            case .png: readPNG(r)
            case .gif: readGIF(r)
            case .webp: readWebP(r)
            case .avif, .heif:
                bitDepth = Self.isobmffBitDepth(r)
                if let frames = ISOBMFFHeaderParser.sequenceFrameCount(in: r), frames > 0 { frameCount = frames }
            case .tiff:
                bitDepth = TIFFLayout(bytes)?.bitsPerSample ?? 1
                frameCount = max(1, TIFFStructure.directoryCount(raw))
            case .bmp: bitDepth = r.u16le(28).map { $0 == 16 ? 5 : 8 }
            case .tga: bitDepth = 8
            }
        }
        if format != .png, let profile = EmbeddedICCProfile.bytes(in: bytes, format: format) {
            hasICCProfile = true
            iccProfileName = ICCProfile.name(of: profile)
        }
    }

    // MARK: - JPEG

    /// The frame header's sample precision (8, or 12 for 12-bit JPEGs).
    private static func jpegPrecision(_ r: ByteReader) -> Int? {
        var precision: Int?
        try? JPEGHeaderParser.walkSegments(r) { segment in
            // SOF0…SOF15, except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(segment.marker), ![0xC4, 0xC8, 0xCC].contains(segment.marker) {
                precision = r.u8(segment.offset + 2)
                return false
            }
            return true
        }
        return precision
    }

    // MARK: - PNG

    /// IHDR's bit depth; `iCCP`'s profile name; `acTL`'s frame count (APNG).
    private mutating func readPNG(_ r: ByteReader) {
        bitDepth = r.u8(24)
        var offset = 8
        while let length = r.u32be(offset), let type = r.fourCC(offset + 4), type != "IDAT", type != "IEND",
            length <= r.count - offset - 12
        {
            if type == "iCCP", let payload = r.slice(offset + 8, length) {
                hasICCProfile = true
                let name = String(decoding: payload.prefix(79).prefix { $0 != 0 }, as: UTF8.self)
                iccProfileName = name.isEmpty ? nil : name
            }
            if type == "acTL", let frames = r.u32be(offset + 8), frames > 0 { frameCount = frames }
            offset += 12 + length
        }
    }

    // MARK: - GIF

    /// Counts image descriptors and looks for a transparent colour in the graphic control
    /// extensions (``GIFBlockWalk``).
    private mutating func readGIF(_ r: ByteReader) {
        bitDepth = 8
        let scan = GIFBlockWalk.scan(r)
        if scan.hasTransparency { hasAlpha = true }
        frameCount = max(1, scan.frames)
    }

    // MARK: - WebP

    /// `VP8X`'s alpha flag, `ALPH` chunks, and the number of `ANMF` frames.
    private mutating func readWebP(_ r: ByteReader) {
        bitDepth = 8
        // Chunks inside the RIFF container only: some writers leave bytes after it.
        let end = min(r.count, (r.u32le(4) ?? 0) + 8)
        var offset = 12
        var frames = 0
        while let type = r.fourCC(offset), let size = r.u32le(offset + 4), offset + 8 <= end, size <= end - offset - 8 {
            switch type {
            case "VP8X": if let flags = r.u8(offset + 8), flags & 0x10 != 0 { hasAlpha = true }
            case "ALPH": hasAlpha = true
            case "VP8L": if let bits = r.u8(offset + 8 + 4), bits & 0x10 != 0 { hasAlpha = true }
            case "ANMF": frames += 1
            default: break
            }
            offset += 8 + size + (size & 1)
        }
        frameCount = max(1, frames)
    }

    // MARK: - AVIF / HEIF

    /// The primary item's `pixi` bits per channel (the first channel's), else `av1C`'s
    /// `high_bitdepth` and `twelve_bit` flags, else `hvcC`'s luma bit depth.
    private static func isobmffBitDepth(_ r: ByteReader) -> Int? {
        guard let meta = ISOBMFFHeaderParser.findBox("meta", in: r, from: 0, to: r.count),
            let properties = ISOBMFFHeaderParser.itemProperties(r, meta: meta)
        else { return nil }
        let boxes = properties.primary ?? properties.all
        if let pixi = boxes.first(where: { $0.type == "pixi" }), let channels = r.u8(pixi.start + 4), channels > 0 {
            return r.u8(pixi.start + 5)
        }
        if let av1C = boxes.first(where: { $0.type == "av1C" }), let flags = r.u8(av1C.start + 2) {
            let high = flags & 0x40 != 0, twelve = flags & 0x20 != 0
            return high ? (twelve ? 12 : 10) : 8
        }
        if let hvcC = boxes.first(where: { $0.type == "hvcC" }), let luma = r.u8(hvcC.start + 17) {
            return (luma & 7) + 8
        }
        return nil
    }
}
