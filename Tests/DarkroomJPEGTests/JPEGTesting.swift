import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport

// MARK: - Decoding helpers

/// Helpers shared by the JPEG suites.
enum JPEGTesting {
    /// Probes and decodes `bytes` with the JPEG decoder.
    static func decode(
        bytes: [UInt8], options: DecodeOptions = DecodeOptions(), decoder: JPEGDecoder = JPEGDecoder()
    ) throws -> Image {
        let header = try ImageProbe.probe(bytes)
        return try decoder.decode(bytes, header: header, options: options)
    }

    /// Probes and decodes a committed fixture.
    static func decode(_ fixture: String, options: DecodeOptions = DecodeOptions()) throws -> Image {
        try decode(bytes: Fixtures.bytes(fixture), options: options)
    }

    /// Encodes with the JPEG encoder under test.
    static func encode(_ image: Image, quality: Int, progressive: Bool = false) throws -> [UInt8] {
        try JPEGEncoder().encode(image, options: EncodeOptions(format: .jpeg, quality: quality, progressive: progressive))
    }

    // MARK: - A large photo-like JPEG

    /// `Pattern.photo(1600×1200)`, the source of the large JPEGs below.
    static let photo = Pattern.photo(width: 1600, height: 1200)

    /// `photo` as a baseline JPEG at quality 90 (4:4:4).
    static let photoJPEG: [UInt8] = try! encode(photo, quality: 90)

    // MARK: - Editing JPEG bytes

    /// `bytes` with an EXIF APP1 segment holding only `orientation` inserted after SOI
    /// (the same layout `make_fixtures.py` writes).
    static func insertingExifOrientation(_ orientation: Orientation, into bytes: [UInt8]) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]  // "MM", 42, IFD0 at 8
        tiff += [0, 1]                                               // one entry
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation.rawValue), 0, 0]  // 274, SHORT, 1
        tiff += [0, 0, 0, 0]                                         // no next IFD
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(bytes[..<2]) + segment + Array(bytes[2...])
    }

    /// The offset of the first start-of-frame marker (FF C0…C2) in `bytes`.
    static func frameMarkerOffset(_ bytes: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if (0xC0...0xC2).contains(marker) { return offset }
            offset += 2 + Int(bytes[offset + 2]) << 8 + Int(bytes[offset + 3])
        }
        return nil
    }

    /// `bytes` with the frame header's size replaced by `width`×`height`.
    static func settingFrameSize(of bytes: [UInt8], width: Int, height: Int) -> [UInt8] {
        var edited = bytes
        let sof = frameMarkerOffset(bytes)!
        edited[sof + 5] = UInt8(height >> 8); edited[sof + 6] = UInt8(height & 0xFF)
        edited[sof + 7] = UInt8(width >> 8); edited[sof + 8] = UInt8(width & 0xFF)
        return edited
    }

    /// The horizontal and vertical sampling factors of the first (luma) component.
    static func lumaSampling(_ bytes: [UInt8]) -> (Int, Int)? {
        guard let sof = frameMarkerOffset(bytes) else { return nil }
        let factors = bytes[sof + 11]
        return (Int(factors >> 4), Int(factors & 0x0F))
    }

    // MARK: - Reference images

    /// Averages `factor`×`factor` blocks; edge blocks average the pixels they have, so the
    /// result is `ceil(width / factor)` × `ceil(height / factor)` like libjpeg's scaling.
    static func boxDownscale(_ image: Image, by factor: Int) -> Image {
        let width = (image.width + factor - 1) / factor
        let height = (image.height + factor - 1) / factor
        return image.pixels.withUnsafeBufferPointer { src in
            Image(width: width, height: height, hasAlpha: false) { dst in
                for y in 0..<height {
                    for x in 0..<width {
                        var sums = [0, 0, 0]
                        var count = 0
                        for sy in (y * factor)..<min(image.height, (y + 1) * factor) {
                            for sx in (x * factor)..<min(image.width, (x + 1) * factor) {
                                let i = (sy * image.width + sx) * 4
                                sums[0] += Int(src[i]); sums[1] += Int(src[i + 1]); sums[2] += Int(src[i + 2])
                                count += 1
                            }
                        }
                        let o = (y * width + x) * 4
                        for c in 0..<3 { dst[o + c] = UInt8((sums[c] + count / 2) / count) }
                        dst[o + 3] = 255
                    }
                }
            }
        }
    }
}


// MARK: - Scans

extension JPEGTesting {
    /// The entropy-coded data of each scan: the bytes after each SOS header up to the next
    /// marker that is not a stuffed byte or a restart marker.
    static func scanDataRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { break }
            let marker = bytes[offset + 1]
            if marker == 0xD9 { break }
            let length = Int(bytes[offset + 2]) << 8 + Int(bytes[offset + 3])
            offset += 2 + length
            guard marker == 0xDA else { continue }
            let start = offset
            while offset + 1 < bytes.count {
                if bytes[offset] == 0xFF, bytes[offset + 1] != 0, !(0xD0...0xD7).contains(bytes[offset + 1]) { break }
                offset += 1
            }
            ranges.append(start..<offset)
        }
        return ranges
    }
}
