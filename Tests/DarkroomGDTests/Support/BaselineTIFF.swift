import DarkroomCore

// MARK: - BaselineTIFF

/// Writes the simplest valid TIFF — little-endian, one uncompressed strip, RGB or RGBA
/// with *unassociated* (straight) alpha — with a chosen Orientation tag, so tests can
/// check libgd's TIFF reading against known pixels without a second TIFF library.
enum BaselineTIFF {
    static func encode(_ image: Image, orientation: Orientation = .up) -> [UInt8] {
        let samples = image.hasAlpha ? 4 : 3
        var pixelData: [UInt8] = []
        pixelData.reserveCapacity(image.width * image.height * samples)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            pixelData.append(contentsOf: image.pixels[i..<i + samples])
        }
        var entries: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)] = []
        let entryCount = image.hasAlpha ? 12 : 11
        let ifdSize = 2 + entryCount * 12 + 4
        let bitsOffset = UInt32(8 + ifdSize)
        let dataOffset = bitsOffset + UInt32(samples * 2)
        let short: UInt16 = 3, long: UInt16 = 4
        entries.append((256, long, 1, UInt32(image.width)))
        entries.append((257, long, 1, UInt32(image.height)))
        entries.append((258, short, UInt32(samples), bitsOffset))   // BitsPerSample: 8 each
        entries.append((259, short, 1, 1))                          // no compression
        entries.append((262, short, 1, 2))                          // RGB
        entries.append((273, long, 1, dataOffset))                  // StripOffsets
        entries.append((274, short, 1, UInt32(orientation.rawValue)))
        entries.append((277, short, 1, UInt32(samples)))
        entries.append((278, long, 1, UInt32(image.height)))        // RowsPerStrip
        entries.append((279, long, 1, UInt32(pixelData.count)))     // StripByteCounts
        entries.append((284, short, 1, 1))                          // chunky
        if image.hasAlpha { entries.append((338, short, 1, 2)) }    // ExtraSamples: unassociated alpha

        var out: [UInt8] = [0x49, 0x49, 42, 0]
        out += le32(8)
        out += le16(UInt16(entries.count))
        for e in entries {
            out += le16(e.tag) + le16(e.type) + le32(e.count)
            out += e.type == short && e.count == 1 ? le16(UInt16(e.value)) + [0, 0] : le32(e.value)
        }
        out += le32(0)
        for _ in 0..<samples { out += le16(8) }
        return out + pixelData
    }

    /// One uncompressed strip of `data` (rows padded to whole bytes) with the given
    /// photometric interpretation, bits per sample, samples per pixel and ExtraSamples
    /// (`nil`: no tag); BitsPerSample is left out when `bitsPerSample` is `nil` (it then
    /// defaults to 1, as some writers rely on).
    static func raw(
        width: Int, height: Int, photometric: UInt32, bitsPerSample: UInt32?, samples: UInt32, extraSample: UInt32?,
        data: [UInt8]
    ) -> [UInt8] {
        let short: UInt16 = 3, long: UInt16 = 4
        var entries: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)] = [
            (256, long, 1, UInt32(width)), (257, long, 1, UInt32(height)),
        ]
        if let bitsPerSample { entries.append((258, short, 1, bitsPerSample)) }
        entries += [(259, short, 1, 1), (262, short, 1, photometric), (273, long, 1, 0), (277, short, 1, samples),
                    (278, long, 1, UInt32(height)), (279, long, 1, UInt32(data.count))]
        if let extraSample { entries.append((338, short, 1, extraSample)) }
        let dataOffset = UInt32(8 + 2 + entries.count * 12 + 4)
        var out: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + le16(UInt16(entries.count))
        for e in entries {
            let value = e.tag == 273 ? dataOffset : e.value
            out += le16(e.tag) + le16(e.type) + le32(e.count)
            out += e.type == short ? le16(UInt16(value)) + [0, 0] : le32(value)
        }
        return out + le32(0) + data
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
}
