// MARK: - Detecting a format from magic bytes

extension ImageFormat {
    /// The format whose signature the bytes start with.
    ///
    /// ```swift
    /// try ImageFormat.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) // .png
    /// ```
    /// - Throws: ``DarkroomError/emptyInput`` for no bytes,
    ///   ``DarkroomError/truncated(_:detail:)`` when the bytes stop inside a signature (`GIF8`),
    ///   and ``DarkroomError/unrecognizedFormat(hint:)`` — saying what the bytes look like
    ///   (HTML, JSON, text, …) — when no signature matches.
    public static func detect(_ bytes: UnsafeRawBufferPointer) throws -> ImageFormat {
        guard !bytes.isEmpty else { throw DarkroomError.emptyInput }
        if let format = signatureMatch(bytes) { return format }
        if let format = cutSignature(bytes) {
            throw DarkroomError.truncated(
                format, detail: "the data ends after \(bytes.count) bytes, inside the format's signature")
        }
        throw DarkroomError.unrecognizedFormat(hint: describeUnknown(bytes))
    }

    /// Convenience for arrays.
    public static func detect(_ bytes: [UInt8]) throws -> ImageFormat {
        try bytes.withUnsafeBytes { try detect($0) }
    }

    // MARK: - Signatures

    private static func signatureMatch(_ b: UnsafeRawBufferPointer) -> ImageFormat? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            guard b.count >= offset + prefix.count else { return false }
            for (i, byte) in prefix.enumerated() where b[offset + i] != byte { return false }
            return true
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) {
            return .tiff
        }
        if starts(Array("BM".utf8)) && b.count >= 26 && looksLikeBMPHeader(b) { return .bmp }
        if starts(Array("ftyp".utf8), at: 4), let brand = isobmffBrand(b) { return brand }
        if looksLikeTGA(b) { return .tga }
        return nil
    }

    /// The format whose signature the bytes (at least two) stop inside of.
    private static func cutSignature(_ b: UnsafeRawBufferPointer) -> ImageFormat? {
        guard b.count >= 2 else { return nil }
        // Each format's first bytes and the length of its whole signature (WebP: RIFF, four
        // size bytes, WEBP).
        let signatures: [(format: ImageFormat, prefix: [UInt8], length: Int)] = [
            (.jpeg, [0xFF, 0xD8, 0xFF], 3), (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], 8),
            (.gif, Array("GIF87a".utf8), 6), (.gif, Array("GIF89a".utf8), 6), (.webp, Array("RIFF".utf8), 12),
        ]
        for signature in signatures where b.count < signature.length {
            if zip(b, signature.prefix).allSatisfy({ $0 == $1 }) { return signature.format }
        }
        // A BMP cut inside its headers, when the DIB header size it has is one BMP uses.
        if b.count >= 18, b.count < 26, b[0] == 0x42, b[1] == 0x4D, let dibSize = ByteReader(b).u32le(14),
            bmpHeaderSizes.contains(dibSize)
        {
            return .bmp
        }
        // An ISO-BMFF `ftyp` box cut before its brands: AVIF when the major brand says so.
        if b.count >= 8, b.count < 16, Array(b[4..<8]) == Array("ftyp".utf8) {
            let major = b.count >= 12 ? String(decoding: b[8..<12], as: UTF8.self) : ""
            return major == "avif" || major == "avis" ? .avif : .heif
        }
        return nil
    }

    /// The DIB header sizes BMP files use: OS/2 1.x (12), OS/2 2.x (16…64, of which 40 is
    /// BITMAPINFOHEADER and 52 and 56 its extensions), V4 (108) and V5 (124).
    static let bmpHeaderSizes: Set<Int> = Set(16...64).union([12, 108, 124])

    /// "BM" is also how plenty of text starts ("BMW…"): a BMP has one colour plane (a 16-bit
    /// 1 where text has two letters), so that its decoder, not the sniffer, names a header
    /// size BMP does not have.
    private static func looksLikeBMPHeader(_ b: UnsafeRawBufferPointer) -> Bool {
        let r = ByteReader(b)
        return r.u16le(r.u32le(14) == 12 ? 22 : 26) == 1
    }

    /// AVIF or HEIF from an ISO-BMFF `ftyp` box's major and compatible brands.
    private static func isobmffBrand(_ b: UnsafeRawBufferPointer) -> ImageFormat? {
        guard b.count >= 16 else { return nil }
        let boxSize = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        let end = min(b.count, max(16, boxSize))
        var brands: [String] = []
        var offset = 8
        while offset + 4 <= end {
            if offset != 12 {  // skip minor_version
                brands.append(String(decoding: b[offset..<offset + 4], as: UTF8.self))
            }
            offset += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heif: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        if brands.contains(where: heif.contains) { return .heif }
        return nil
    }

    /// TGA has no magic number: accept only a header whose fields are all plausible — a type
    /// that exists, a depth that type can have, a colour map only where one may be (any
    /// type may carry one; colour-mapped types must), non-zero sides.
    private static func looksLikeTGA(_ b: UnsafeRawBufferPointer) -> Bool {
        guard b.count >= 18 else { return false }
        let colorMapType = b[1], imageType = b[2], depth = b[16], mapEntryBits = b[7]
        let width = Int(b[12]) | Int(b[13]) << 8, height = Int(b[14]) | Int(b[15]) << 8
        guard colorMapType <= 1, [1, 2, 3, 9, 10, 11].contains(imageType), width > 0, height > 0 else { return false }
        // A colour map's entries are colours.
        if colorMapType == 1, ![15, 16, 24, 32].contains(mapEntryBits) { return false }
        switch imageType {
        case 1, 9: return colorMapType == 1 && (depth == 8 || depth == 16)
        case 2, 10: return [15, 16, 24, 32].contains(depth)
        default: return depth == 8 || depth == 16  // grey, or grey and alpha
        }
    }

    // MARK: - Describing unknown bytes

    /// A short, human description of bytes that are not an image.
    static func describeUnknown(_ b: UnsafeRawBufferPointer) -> String {
        let head = b.prefix(64)
        let text = String(decoding: head, as: UTF8.self)
        let trimmed = text.drop(while: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" })
        let lower = trimmed.lowercased()
        let hex = b.prefix(8).map { byte in
            let s = String(byte, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }.joined(separator: " ")
        if lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html") || lower.hasPrefix("<head")
            || lower.hasPrefix("<body") {
            return "the data is HTML, not an image (starts with \(quoted(trimmed)))"
        }
        if lower.hasPrefix("<?xml") || lower.hasPrefix("<svg") {
            return lower.contains("<svg") || lower.hasPrefix("<svg")
                ? "the data is SVG/XML, which Darkroom does not rasterise (starts with \(quoted(trimmed)))"
                : "the data is XML, not an image (starts with \(quoted(trimmed)))"
        }
        if lower.hasPrefix("{") || lower.hasPrefix("[") {
            return "the data looks like JSON, not an image (starts with \(quoted(trimmed)))"
        }
        let printable = head.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32...126).contains($0) }
        if printable && !head.isEmpty {
            return "the data is plain text, not an image (starts with \(quoted(trimmed)))"
        }
        return "no known image signature in the first bytes (\(hex))"
    }

    private static func quoted(_ text: Substring) -> String {
        let line = text.prefix(while: { $0 != "\n" && $0 != "\r" }).prefix(24)
        return "\"\(line)\""
    }
}
