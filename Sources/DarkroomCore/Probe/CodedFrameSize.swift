// MARK: - Coded frame size (AV1, HEVC)

/// The size of the frame an AVIF's AV1 or a HEIF's HEVC decoder allocates, read from the
/// codec's own headers rather than from the container's `ispe`.
///
/// libgd hands AVIF and HEIF files to libavif and libheif, which decode the whole coded frame
/// before cropping it to `ispe`. A file whose `ispe` says 64×64 while its frame is 12000×12000
/// would pass a pixel limit checked against `ispe` alone and then decode 144 megapixels; so
/// the limit is also checked against this size (``ImageHeader/codedSize``).
///
/// - AV1: the sequence header OBU's `max_frame_width_minus_1 + 1` × `max_frame_height_minus_1 + 1`,
///   found in `av1C`'s configuration OBUs or at the start of the primary item's data (`iloc`).
/// - HEVC: the SPS's `pic_width_in_luma_samples` × `pic_height_in_luma_samples`, from `hvcC`
///   (coded sizes are rounded up to the coding block size, so they may exceed `ispe` a little).
///
/// ```swift
/// CodedFrameSize.av1(sequenceHeader: obuPayload)  // PixelSize(width: 12000, height: 12000)
/// ```
enum CodedFrameSize {
    // MARK: - AV1

    /// The maximum frame size in the first sequence header OBU of `obus` (a run of OBUs with
    /// size fields, as in `av1C` and AVIF item data), or `nil`.
    static func av1(obus r: ByteReader, from start: Int, to end: Int) -> PixelSize? {
        var offset = start
        for _ in 0..<16 {  // a temporal delimiter, metadata… the sequence header comes first
            guard offset < end, let header = r.u8(offset) else { return nil }
            let type = (header >> 3) & 0xF, hasExtension = header & 0x4 != 0, hasSize = header & 0x2 != 0
            offset += hasExtension ? 2 : 1
            guard hasSize, let (size, sizeLength) = leb128(r, at: offset, end: end) else { return nil }
            offset += sizeLength
            guard size <= end - offset else { return nil }
            if type == 1, let payload = r.slice(offset, size) {
                return av1(sequenceHeader: ByteReader(payload))
            }
            offset += size
        }
        return nil
    }

    /// The maximum frame size a sequence header OBU's payload declares (AV1 spec 5.5).
    static func av1(sequenceHeader r: ByteReader) -> PixelSize? {
        var bits = BitReader(r)
        guard bits.skip(3), let stillPicture = bits.read(1), let reduced = bits.read(1) else { return nil }
        _ = stillPicture
        if reduced == 1 {
            guard bits.skip(5) else { return nil }  // seq_level_idx[0]
        } else {
            guard let timingInfo = bits.read(1) else { return nil }
            var decoderModelInfo = 0, bufferDelayLength = 0
            if timingInfo == 1 {
                guard bits.skip(64), let equalPictureInterval = bits.read(1) else { return nil }
                if equalPictureInterval == 1 { guard bits.uvlc() != nil else { return nil } }
                guard let present = bits.read(1) else { return nil }
                decoderModelInfo = present
                if present == 1 {
                    guard let delayLength = bits.read(5), bits.skip(32 + 5 + 5) else { return nil }
                    bufferDelayLength = delayLength + 1
                }
            }
            guard let initialDisplayDelay = bits.read(1), let points = bits.read(5) else { return nil }
            for _ in 0...points {
                guard bits.skip(12), let level = bits.read(5) else { return nil }
                if level > 7 { guard bits.skip(1) else { return nil } }
                if decoderModelInfo == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(2 * bufferDelayLength + 1) else { return nil } }
                }
                if initialDisplayDelay == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(4) else { return nil } }
                }
            }
        }
        guard let widthBits = bits.read(4), let heightBits = bits.read(4),
            let width = bits.read(widthBits + 1), let height = bits.read(heightBits + 1)
        else { return nil }
        return PixelSize(width: width + 1, height: height + 1)
    }

    /// An unsigned LEB128 number (at most 8 bytes) and its length.
    static func leb128(_ r: ByteReader, at start: Int, end: Int) -> (Int, Int)? {
        var value = 0
        for i in 0..<8 {
            guard start + i < end, let byte = r.u8(start + i) else { return nil }
            value |= (byte & 0x7F) << (7 * i)
            if byte & 0x80 == 0 { return (value, i + 1) }
        }
        return nil
    }

    // MARK: - HEVC

    /// The picture size of the first SPS in an `hvcC` box's payload, or `nil`.
    static func hevc(configuration r: ByteReader, from start: Int, to end: Int) -> PixelSize? {
        guard let arrays = r.u8(start + 22) else { return nil }
        var offset = start + 23
        for _ in 0..<arrays {
            guard let kind = r.u8(offset), let count = r.u16be(offset + 1) else { return nil }
            offset += 3
            for _ in 0..<count {
                guard let length = r.u16be(offset), length <= end - offset - 2 else { return nil }
                if kind & 0x3F == 33, let nal = r.slice(offset + 2, length) {
                    return hevc(sequenceParameterSet: ByteReader(nal))
                }
                offset += 2 + length
            }
        }
        return nil
    }

    /// The picture size an SPS NAL unit (with its 2-byte header) declares (H.265 7.3.2.2).
    static func hevc(sequenceParameterSet nal: ByteReader) -> PixelSize? {
        // Drop the emulation-prevention bytes (00 00 03 → 00 00) after the NAL header.
        var payload: [UInt8] = []
        var zeros = 0
        for i in stride(from: 2, to: nal.count, by: 1) {  // a NAL shorter than its header has none
            guard let byte = nal.u8(i) else { break }
            if zeros >= 2, byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            payload.append(UInt8(byte))
        }
        return payload.withUnsafeBytes { raw -> PixelSize? in
            var bits = BitReader(ByteReader(raw))
            guard bits.skip(4), let subLayers = bits.read(3), bits.skip(1) else { return nil }
            // profile_tier_level: general profile (88 bits) and level (8), then per sub-layer flags.
            guard bits.skip(88 + 8) else { return nil }
            var profilePresent: [Int] = [], levelPresent: [Int] = []
            for _ in 0..<subLayers {
                guard let p = bits.read(1), let l = bits.read(1) else { return nil }
                profilePresent.append(p)
                levelPresent.append(l)
            }
            if subLayers > 0 { guard bits.skip(2 * (8 - subLayers)) else { return nil } }
            for i in 0..<subLayers {
                guard bits.skip(profilePresent[i] * 88 + levelPresent[i] * 8) else { return nil }
            }
            guard bits.ue() != nil, let chroma = bits.ue() else { return nil }  // sps id, chroma_format_idc
            if chroma == 3 { guard bits.skip(1) else { return nil } }
            guard let width = bits.ue(), let height = bits.ue() else { return nil }
            return PixelSize(width: width, height: height)
        }
    }
}

// MARK: - BitReader

/// Big-endian bits from a ``ByteReader``, for codec headers.
struct BitReader {
    let bytes: ByteReader
    var position = 0

    init(_ bytes: ByteReader) { self.bytes = bytes }

    /// The next `count` (0…32) bits as an unsigned number, or `nil` past the end.
    mutating func read(_ count: Int) -> Int? {
        guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            guard let byte = bytes.u8(position >> 3) else { return nil }
            value = value << 1 | (byte >> (7 - position & 7)) & 1
            position += 1
        }
        return value
    }

    /// Skips `count` bits; `false` past the end.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count * 8 else { return false }
        position += count
        return true
    }

    /// An Exp-Golomb number (H.265 `ue(v)`), up to 31 leading zeros.
    mutating func ue() -> Int? {
        var zeros = 0
        while true {
            guard let bit = read(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            guard zeros < 32 else { return nil }
        }
        guard let rest = read(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }

    /// An AV1 `uvlc()` number.
    mutating func uvlc() -> Int? { ue() }
}
