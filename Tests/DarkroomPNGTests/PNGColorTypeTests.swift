import DarkroomCore
import DarkroomPNG
import DarkroomTestSupport
import Testing

// MARK: - Colour types and bit depths

@Suite("Low bit depths, 16-bit samples and tRNS all become exact RGBA8")
struct PNGColorTypeTests {
    @Test("a 2-bit palette with an 8-bit tRNS alpha per entry")
    func paletteTransparency() throws {
        let builder = PNGFileBuilder(
            width: 4, height: 1, bitDepth: 2, colorType: 3,
            palette: [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30], transparency: [0, 85, 170])
        // Indices 0, 1, 2, 3 packed into one byte; entry 3 has no tRNS value, so it is opaque.
        let image = try decodePNG(builder.file(rows: [[0b00_01_10_11]]))
        #expect(image.pixels == [255, 0, 0, 0, 0, 255, 0, 85, 0, 0, 255, 170, 10, 20, 30, 255])
        #expect(image.hasAlpha)
    }

    @Test("1-bit grey expands to black and white, opaque")
    func oneBitGrey() throws {
        let builder = PNGFileBuilder(width: 10, height: 2, bitDepth: 1, colorType: 0)
        let image = try decodePNG(builder.file(rows: [[0b1010_1010, 0b1100_0000], [0b0101_0101, 0b0000_0000]]))
        let expected: [UInt8] = [1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0]
        #expect(image.pixels == expected.flatMap { $0 == 1 ? [255, 255, 255, 255] : [0, 0, 0, 255] })
        #expect(image.hasAlpha == false)
    }

    @Test("every 16-bit grey value rounds to the nearest 8-bit value")
    func sixteenBitRounding() throws {
        // 256×256 pixels: every value 0…65535 once.
        let builder = PNGFileBuilder(width: 256, height: 256, bitDepth: 16, colorType: 0)
        let rows = (0..<256).map { y in (0..<256).flatMap { x in [UInt8(y), UInt8(x)] } }
        let image = try decodePNG(builder.file(rows: rows))
        var wrong = 0
        for value in 0..<65536 {
            let expected = UInt8((value * 255 + 32767) / 65535)
            let i = value * 4
            if image.pixels[i] != expected || image.pixels[i + 1] != expected || image.pixels[i + 2] != expected {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }

    @Test("tRNS on 16-bit grey and on 8-bit RGB makes the matching colour transparent")
    func colourKey() throws {
        let grey = PNGFileBuilder(width: 2, height: 1, bitDepth: 16, colorType: 0, transparency: [0x12, 0x34])
        let greyImage = try decodePNG(grey.file(rows: [[0x12, 0x34, 0x12, 0x35]]))
        #expect(greyImage.pixel(x: 0, y: 0).a == 0)
        #expect(greyImage.pixel(x: 1, y: 0).a == 255)

        let rgb = PNGFileBuilder(width: 2, height: 1, bitDepth: 8, colorType: 2, transparency: [0, 9, 0, 8, 0, 7])
        let rgbImage = try decodePNG(rgb.file(rows: [[9, 8, 7, 9, 8, 6]]))
        #expect(rgbImage.pixels == [9, 8, 7, 0, 9, 8, 6, 255])
        #expect(rgbImage.hasAlpha)
    }

    @Test("a CRC error in an ancillary chunk drops that chunk, not the image")
    func ancillaryCRC() throws {
        var bytes = Fixtures.bytes("gradient-rgba.png")
        let text = try #require(pngChunkOffset(bytes, type: "tIME"))
        bytes[text + 8 + 7] ^= 0xFF  // tIME holds 7 bytes; flip its CRC's first byte
        #expect(try decodePNG(bytes) == Pattern.gradient(alpha: true))
    }
}
