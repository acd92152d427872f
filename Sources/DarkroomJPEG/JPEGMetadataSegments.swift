import DarkroomCore

// MARK: - JPEGMetadataSegments

/// Puts an ``ImageMetadata`` into an encoded JPEG as the marker segments readers look for:
/// APP1 `Exif\0\0` + the TIFF structure, APP1 with XMP's namespace + the packet, and the ICC
/// profile in APP2 `ICC_PROFILE` chunks (ICC.1 B.4: up to 255 chunks of 65,519 bytes). They go
/// right after SOI and libjpeg's JFIF APP0, where EXIF readers expect them.
///
/// A segment holds at most 65,533 bytes: a larger EXIF block or XMP packet (which would need
/// XMP's extended-packet scheme) is left out rather than cut.
///
/// ```swift
/// let tagged = JPEGMetadataSegments.inserting(ImageMetadata(exif: exif), into: jpeg)
/// ```
enum JPEGMetadataSegments {
    /// The largest payload of one marker segment (its 16-bit length counts itself).
    static let maximumPayload = 65_533
    static let exifSignature: [UInt8] = Array("Exif\0\0".utf8)
    static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let iccSignature: [UInt8] = Array("ICC_PROFILE\0".utf8)

    /// `jpeg` with `metadata`'s segments inserted; `jpeg` itself when it does not start with
    /// SOI or there is nothing to insert.
    static func inserting(_ metadata: ImageMetadata, into jpeg: [UInt8]) -> [UInt8] {
        let segments = self.segments(for: metadata)
        guard !segments.isEmpty, jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return jpeg }
        var at = 2
        // Keep JFIF's APP0 first, as its specification asks.
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count >= 6 {
            let length = Int(jpeg[4]) << 8 | Int(jpeg[5])
            if at + 2 + length <= jpeg.count { at += 2 + length }
        }
        var out = [UInt8]()
        out.reserveCapacity(jpeg.count + segments.reduce(0) { $0 + $1.count })
        out += jpeg[..<at]
        for segment in segments { out += segment }
        out += jpeg[at...]
        return out
    }

    /// The marker segments, in the order EXIF, XMP, ICC.
    static func segments(for metadata: ImageMetadata) -> [[UInt8]] {
        var segments: [[UInt8]] = []
        if let exif = metadata.exif, let segment = segment(0xE1, exifSignature + exif) { segments.append(segment) }
        if let xmp = metadata.xmp, let segment = segment(0xE1, xmpSignature + xmp) { segments.append(segment) }
        if let icc = metadata.iccProfile, !icc.isEmpty {
            let chunkSize = maximumPayload - iccSignature.count - 2
            let count = (icc.count + chunkSize - 1) / chunkSize
            if count <= 255 {
                for index in 0..<count {
                    let chunk = icc[index * chunkSize..<min(icc.count, (index + 1) * chunkSize)]
                    segments.append(segment(0xE2, iccSignature + [UInt8(index + 1), UInt8(count)] + chunk)!)
                }
            }
        }
        return segments
    }

    /// One marker segment: `FF marker`, the length, the payload; `nil` when it does not fit.
    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8]? {
        guard payload.count <= maximumPayload else { return nil }
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
