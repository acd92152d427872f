@testable import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Coded frame size

@Suite("AVIF and HEIF headers give the size the codec really decodes, so a small 'ispe' cannot hide a huge frame")
struct CodedFrameSizeTests {
    /// `bytes` with every `ispe` box's extent replaced by `width`×`height`.
    static func patchingExtents(_ bytes: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var out = bytes
        let tag = Array("ispe".utf8)
        for i in 0..<(out.count - 16) where Array(out[i..<i + 4]) == tag {
            for (k, value) in [width, height].enumerated() {
                for b in 0..<4 { out[i + 8 + 4 * k + b] = UInt8(truncatingIfNeeded: value >> (24 - 8 * b)) }
            }
        }
        return out
    }

    @Test("the fixtures' coded frames: AV1 exactly the image, HEVC rounded up to its coding blocks")
    func fixtures() throws {
        let avif = try ImageProbe.probe(Fixtures.bytes("gradient.avif"))
        #expect(avif.size == PixelSize(width: 64, height: 48) && avif.codedSize == PixelSize(width: 64, height: 48))
        let heif = try ImageProbe.probe(Fixtures.bytes("gradient.heic"))
        #expect(heif.size == PixelSize(width: 64, height: 48) && heif.codedSize == PixelSize(width: 64, height: 64))
    }

    @Test("an 'ispe' smaller than the frame is caught by the pixel limit on the frame", arguments: ["gradient.avif", "gradient.heic"])
    func lyingExtent(name: String) throws {
        let header = try ImageProbe.probe(Self.patchingExtents(Fixtures.bytes(name), width: 8, height: 8))
        #expect(header.size == PixelSize(width: 8, height: 8))
        let frame = try #require(header.codedSize)
        #expect(frame.width >= 64 && frame.height >= 48)
        #expect { try DecodeLimits(maxPixels: 1000).check(header) } throws: { error in
            guard case let DarkroomError.frameTooLarge(_, width, height, coded, _) = error else { return false }
            return width == 8 && height == 8 && coded == frame
        }
        try DecodeLimits(maxPixels: frame.width * frame.height).check(header)
    }

    /// Bits, most significant first, packed into bytes (the last one padded with zeros).
    static func packed(_ fields: [(value: Int, bits: Int)]) -> [UInt8] {
        var bits: [Int] = []
        for field in fields { for i in stride(from: field.bits - 1, through: 0, by: -1) { bits.append(field.value >> i & 1) } }
        while bits.count % 8 != 0 { bits.append(0) }
        return stride(from: 0, to: bits.count, by: 8).map { start in
            UInt8(bits[start..<start + 8].reduce(0) { $0 << 1 | $1 })
        }
    }

    @Test("an AV1 sequence header's maximum frame size, reduced or full, with timing and decoder model information")
    func av1SequenceHeaders() {
        let reduced = Self.packed([(0, 3), (1, 1), (1, 1), (31, 5), (15, 4), (13, 4), (11999, 16), (8999, 14)])
        #expect(reduced.withUnsafeBytes { CodedFrameSize.av1(sequenceHeader: ByteReader($0)) } == PixelSize(width: 12000, height: 9000))
        // Timing info with an equal picture interval (uvlc 0 = one bit), a decoder model with
        // 4-bit buffer delays, and two operating points, the second of level 9 (a tier bit).
        let full = Self.packed([
            (0, 3), (0, 1), (0, 1), (1, 1), (1000, 32), (25_000, 32), (1, 1), (1, 1), (1, 1),
            (3, 5), (1, 32), (0, 5), (0, 5),
            (1, 1), (1, 5),
            (0, 12), (4, 5), (1, 1), (5, 4), (6, 4), (1, 1), (1, 1), (2, 4),
            (0, 12), (9, 5), (0, 1), (0, 1), (0, 1),
            (10, 4), (10, 4), (1919, 11), (1079, 11),
        ])
        #expect(full.withUnsafeBytes { CodedFrameSize.av1(sequenceHeader: ByteReader($0)) } == PixelSize(width: 1920, height: 1080))
        let cut = Array(full.prefix(10))
        #expect(cut.withUnsafeBytes { CodedFrameSize.av1(sequenceHeader: ByteReader($0)) } == nil)
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + Array(type.utf8) + payload
    }

    @Test("extents as large as 32 bits allow, with no primary item, are compared without overflow")
    func hugeExtents() throws {
        let ftyp = Self.box("ftyp", Array("avif".utf8) + [0, 0, 0, 0] + Array("avifmif1".utf8))
        let huge = Self.box("ispe", [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        let small = Self.box("ispe", [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2])
        let meta = Self.box("meta", [0, 0, 0, 0] + Self.box("iprp", Self.box("ipco", small + huge + huge)))
        let header = try ImageProbe.probe(ftyp + meta)
        #expect(header.width == 0xFFFF_FFFF && header.height == 0xFFFF_FFFF)
        #expect(throws: DarkroomError.self) { try DecodeLimits().check(header) }
    }

    @Test("every prefix of the fixtures' codec headers gives the frame or nothing, never a trap")
    func prefixes() {
        for name in ["gradient.avif", "gradient.heic"] {
            let bytes = Fixtures.bytes(name)
            for length in stride(from: 0, through: bytes.count, by: 7) { _ = try? ImageProbe.probe(Array(bytes.prefix(length))) }
        }
    }
}
