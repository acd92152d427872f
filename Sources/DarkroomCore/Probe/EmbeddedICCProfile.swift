// MARK: - EmbeddedICCProfile

/// Finds the ICC profile embedded in an encoded image, for the formats whose containers Swift
/// reads directly: JPEG (`APP2 ICC_PROFILE` segments, reassembled in sequence order), WebP
/// (the `ICCP` chunk), AVIF/HEIF (the primary item's `colr` property of type `prof` or
/// `rICC`) and TIFF (the first image's `ICCProfile` field). PNG's `iCCP` is compressed, so the
/// PNG decoder gets it from libpng instead.
///
/// A profile that is cut short, or split into segments with one missing, is `nil` (the image
/// is then used as sRGB, as browsers do).
///
/// ```swift
/// let profile = EmbeddedICCProfile.bytes(in: jpegBytes, format: .jpeg).flatMap(ICCProfile.init(bytes:))
/// ```
public enum EmbeddedICCProfile {
    /// The profile's bytes, or `nil` when the image has none (or `format` is not one read here).
    public static func bytes(in data: [UInt8], format: ImageFormat) -> [UInt8]? {
        data.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            switch format {
            case .jpeg: return jpeg(r)
            case .webp: return webp(r)
            case .avif, .heif: return isobmff(r)
            case .tiff: return TIFFStructure.readIFD0(raw)?.iccProfile.map { Array(raw[$0]) }
            default: return nil
            }
        }
    }

    // MARK: - JPEG

    private static func jpeg(_ r: ByteReader) -> [UInt8]? {
        var chunks: [Int: [UInt8]] = [:]
        var expected = 0
        // A file whose markers cannot be walked fails its probe and decode anyway.
        try? JPEGHeaderParser.walkSegments(r) { segment in
            let offset = segment.offset, length = segment.length
            // "ICC_PROFILE\0", then this chunk's 1-based sequence number and the chunk count.
            if segment.marker == 0xE2, length >= 16, r.starts(with: "ICC_PROFILE\0", at: offset + 2),
                let sequence = r.u8(offset + 14), let count = r.u8(offset + 15),
                let payload = r.slice(offset + 16, length - 16)
            {
                expected = max(expected, count)
                chunks[sequence] = Array(payload)
            }
            return true
        }
        guard expected > 0, chunks.count == expected else { return nil }
        var profile = [UInt8]()
        for sequence in 1...expected {
            guard let chunk = chunks[sequence] else { return nil }
            profile += chunk
        }
        return profile
    }

    // MARK: - WebP

    private static func webp(_ r: ByteReader) -> [UInt8]? {
        guard r.starts(with: "RIFF", at: 0), r.starts(with: "WEBP", at: 8) else { return nil }
        var offset = 12
        while let type = r.fourCC(offset), let size = r.u32le(offset + 4) {
            if type == "ICCP" { return r.slice(offset + 8, size).map { Array($0) } }
            // Image data comes after the ICCP chunk when there is one.
            if type == "VP8 " || type == "VP8L" || type == "ANIM" { return nil }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    // MARK: - AVIF / HEIF

    private static func isobmff(_ r: ByteReader) -> [UInt8]? {
        for box in primaryColourBoxes(r) {
            guard let kind = r.fourCC(box.start), kind == "prof" || kind == "rICC" else { continue }
            return r.slice(box.start + 4, box.end - box.start - 4).map { Array($0) }
        }
        return nil
    }

    /// The colour code points of an AVIF or HEIF file's primary item (its `colr` box of type
    /// `nclx`), or `nil` when it has none (or `format` is another format).
    ///
    /// ```swift
    /// let colour = EmbeddedICCProfile.cicp(in: avifBytes, format: .avif)   // primaries 12, transfer 13
    /// ```
    public static func cicp(in data: [UInt8], format: ImageFormat) -> CICPColor? {
        guard format == .avif || format == .heif else { return nil }
        return data.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            for box in primaryColourBoxes(r) where r.fourCC(box.start) == "nclx" {
                guard let primaries = r.u16be(box.start + 4), let transfer = r.u16be(box.start + 6) else { return nil }
                return CICPColor(primaries: primaries, transfer: transfer)
            }
            return nil
        }
    }

    /// The `colr` boxes associated with the primary item (all of them without an `ipma`).
    private static func primaryColourBoxes(_ r: ByteReader) -> [ISOBMFFHeaderParser.Box] {
        guard let meta = ISOBMFFHeaderParser.findBox("meta", in: r, from: 0, to: r.count),
            let properties = ISOBMFFHeaderParser.itemProperties(r, meta: meta)
        else { return [] }
        return (properties.primary ?? properties.all).filter { $0.type == "colr" }
    }
}
