import DarkroomBMP
import DarkroomCore
import Testing

// MARK: - 16, 24 and 32 bits

/// Little-endian bytes of 16-bit pixels.
private func words(_ values: [Int]) -> [UInt8] { values.flatMap { BMPWriter.le16($0) } }
/// Little-endian bytes of 32-bit pixels.
private func longs(_ values: [Int]) -> [UInt8] { values.flatMap { BMPWriter.le32($0) } }

@Suite("Direct-colour BMPs: 16-bit 5-5-5 and bit fields, 24 bits, 32 bits with and without alpha")
struct BMPDirectColourTests {
    @Test("16-bit BI_RGB is 5-5-5: 31 becomes 255, 16 becomes 132, and the top bit is ignored")
    func rgb555() throws {
        let stored = [0x7C00, 0x03E0, 0x001F, 0x7FFF, 0x8000 | 16 << 10 | 1 << 5]  // one row of 5
        let file = BMPWriter(width: 5, height: 1, bitCount: 16, pixels: BMPWriter.rows([words(stored)])).bytes()
        let decoded = try decodeBMP(file)
        #expect(decoded.pixels == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 132, 8, 0, 255])
        #expect(decoded.hasAlpha == false)
    }

    @Test("16-bit BI_BITFIELDS 5-6-5 with the masks after a 40-byte header (3 px, padded rows)")
    func rgb565() throws {
        let rows = bottomUp(2) { y in words(y == 0 ? [0xF800, 0x07E0, 0x001F] : [16 << 11 | 32 << 5 | 1, 0xFFFF, 0]) }
        let file = BMPWriter(
            width: 3, height: 2, bitCount: 16, compression: 3, masks: [0xF800, 0x07E0, 0x001F],
            pixels: BMPWriter.rows(rows)
        ).bytes()
        let decoded = try decodeBMP(file)
        #expect(decoded.pixels == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                                   132, 130, 8, 255, 255, 255, 255, 255, 0, 0, 0, 255])
    }

    @Test("16-bit BI_ALPHABITFIELDS 4-4-4-4 takes its alpha mask from the 16 bytes after the header")
    func argb4444() throws {
        let stored = [0xF00F, 0x0FF0, 0x8421, 0x0000]
        let file = BMPWriter(
            width: 4, height: 1, bitCount: 16, compression: 6, masks: [0x0F00, 0x00F0, 0x000F, 0xF000],
            pixels: BMPWriter.rows([words(stored)])
        ).bytes()
        let decoded = try decodeBMP(file)
        #expect(decoded.pixels == [0, 0, 255, 255, 255, 255, 0, 0, 68, 34, 17, 136, 0, 0, 0, 0])
        #expect(decoded.hasAlpha)
    }

    @Test("24-bit B-G-R rows, bottom-up and top-down, give the same image")
    func trueColour() throws {
        let expected = BMPFixtures.pattern(alpha: false)
        func row(_ y: Int) -> [UInt8] {
            (0..<7).flatMap { x in let p = expected.pixel(x: x, y: y); return [p.b, p.g, p.r] }
        }
        let bottomUpFile = BMPWriter(width: 7, height: 5, bitCount: 24, pixels: BMPWriter.rows(bottomUp(5, row))).bytes()
        let topDownFile = BMPWriter(width: 7, height: -5, bitCount: 24, pixels: BMPWriter.rows((0..<5).map(row))).bytes()
        #expect(try decodeBMP(bottomUpFile) == expected)
        #expect(try decodeBMP(topDownFile) == expected)
    }

    @Test("32-bit BI_RGB: the fourth byte is alpha when some pixel's is non-zero")
    func bgraWithAlpha() throws {
        let expected = BMPFixtures.pattern(alpha: true)
        let rows = bottomUp(5) { (y: Int) -> [UInt8] in (0..<7).flatMap { x -> [UInt8] in let p = expected.pixel(x: x, y: y); return [p.b, p.g, p.r, p.a] } }
        let decoded = try decodeBMP(BMPWriter(width: 7, height: 5, bitCount: 32, pixels: rows.flatMap { $0 }).bytes())
        #expect(decoded == expected)
        #expect(decoded.pixel(x: 0, y: 0).a == 0)
    }

    @Test("32-bit BI_RGB whose fourth bytes are all 0 (reserved, as most writers leave it) is opaque",
          arguments: [BMPWriter.Header.info, .v3, .v5])
    func bgrxOpaque(header: BMPWriter.Header) throws {
        let stored = longs([0x00_10_20_30, 0x00_FF_00_80, 0x00_00_00_00])
        let decoded = try decodeBMP(BMPWriter(header: header, width: 3, height: 1, bitCount: 32, pixels: stored).bytes())
        #expect(decoded.pixels == [0x10, 0x20, 0x30, 255, 0xFF, 0x00, 0x80, 255, 0, 0, 0, 255])
        #expect(decoded.hasAlpha == false)
    }

    @Test("32-bit BI_RGB whose fourth bytes are all 255 is opaque (hasAlpha false)")
    func bgraAllOpaque() throws {
        let decoded = try decodeBMP(BMPWriter(width: 2, height: 1, bitCount: 32, pixels: longs([-1, 0xFF_01_02_03])).bytes())
        #expect(decoded.pixels == [255, 255, 255, 255, 1, 2, 3, 255])
        #expect(decoded.hasAlpha == false)
    }

    @Test("V4 BI_BITFIELDS with an alpha mask, in R-G-B-A byte order", arguments: [BMPWriter.Header.v4, .v5, .v3])
    func bitfieldsWithAlpha(header: BMPWriter.Header) throws {
        let masks: [UInt32] = [0x0000_00FF, 0x0000_FF00, 0x00FF_0000, 0xFF00_0000]
        let stored = longs([0x80_30_20_10, 0x00_00_00_FF, 0xFF_FF_FF_FF])
        let file = BMPWriter(header: header, width: 3, height: -1, bitCount: 32, compression: 3, masks: masks, pixels: stored)
        let decoded = try decodeBMP(file.bytes())
        #expect(decoded.pixels == [0x10, 0x20, 0x30, 0x80, 0xFF, 0, 0, 0, 255, 255, 255, 255])
        #expect(decoded.hasAlpha)
    }

    @Test("V5 BI_BITFIELDS 10-10-10-2 scales wide channels and 2-bit alpha with rounding")
    func tenBitChannels() throws {
        let masks: [UInt32] = [0x3FF0_0000, 0x000F_FC00, 0x0000_03FF, 0xC000_0000]
        let stored = longs([3 << 30 | 1023 << 20 | 512 << 10 | 1, 1 << 30 | 0 << 20 | 1023 << 10 | 1023, 2 << 30 | 2 << 20 | 3 << 10])
        let file = BMPWriter(header: .v5, width: 3, height: 1, bitCount: 32, compression: 3, masks: masks, pixels: stored)
        let decoded = try decodeBMP(file.bytes())
        #expect(decoded.pixels == [255, 128, 0, 255, 0, 255, 255, 85, 0, 1, 0, 170])
    }

    @Test("a V2 (52-byte) header has RGB masks and no alpha")
    func v2Header() throws {
        let file = BMPWriter(
            header: .v2, width: 2, height: 1, bitCount: 16, compression: 3, masks: [0xF800, 0x07E0, 0x001F],
            pixels: words([0xF81F, 0x07E0])
        ).bytes()
        let decoded = try decodeBMP(file)
        #expect(decoded.pixels == [255, 0, 255, 255, 0, 255, 0, 255])
        #expect(decoded.hasAlpha == false)
    }

    @Test("V4/V5 BI_RGB ignores the masks in the header", arguments: [BMPWriter.Header.v4, .v5])
    func masksIgnoredWithoutBitfields(header: BMPWriter.Header) throws {
        let file = BMPWriter(header: header, width: 1, height: 1, bitCount: 16, masks: [0xF800, 0x07E0, 0x001F, 0], pixels: words([0x7C00, 0]))
        #expect(try decodeBMP(file.bytes()).pixels == [255, 0, 0, 255])
    }

    @Test("OS/2 2.x headers of 64 and 16 bytes read like a BITMAPINFOHEADER", arguments: [64, 16, 24])
    func os2Header(size: Int) throws {
        let expected = BMPFixtures.pattern(alpha: false)
        let rows = bottomUp(5) { (y: Int) -> [UInt8] in (0..<7).flatMap { x -> [UInt8] in let p = expected.pixel(x: x, y: y); return [p.b, p.g, p.r] } }
        let file = BMPWriter(header: .os2(size: size), width: 7, height: 5, bitCount: 24, pixels: BMPWriter.rows(rows))
        #expect(try decodeBMP(file.bytes()) == expected)
    }

    @Test("the orientation in the caller's header is applied, or left alone when asked")
    func orientation() throws {
        let bytes = BMPFixtures.bytes("pillow-rgb24.bmp")
        var header = try ImageProbe.probe(bytes)
        header.orientation = .right
        let stored = BMPFixtures.pattern(alpha: false)
        #expect(try BMPDecoder().decode(bytes, header: header, options: DecodeOptions()) == stored.applying(.right))
        let unturned = DecodeOptions(appliesOrientation: false)
        #expect(try BMPDecoder().decode(bytes, header: header, options: unturned) == stored)
    }
}
