import DarkroomBMP
import DarkroomCore
import Testing

// MARK: - Palette images

/// A palette of `count` opaque colours: colour i is `(7i, 255 − 5i, 3i)` modulo 256.
func testPalette(_ count: Int) -> [RGBA] {
    (0..<count).map { (i: Int) -> RGBA in
        let r = UInt8(truncatingIfNeeded: 7 * i), g = UInt8(truncatingIfNeeded: 255 - 5 * i)
        return RGBA(r: r, g: g, b: UInt8(truncatingIfNeeded: 3 * i))
    }
}

@Suite("Palette BMPs: 1, 2, 4 and 8 bits, BGR and BGR0 entries, short palettes")
struct BMPPaletteTests {
    @Test(
        "each depth decodes every index to its palette colour (7×5, padded rows)",
        arguments: [(1, 2), (2, 4), (4, 16), (4, 11), (8, 256), (8, 40)])
    func depths(bits: Int, colours: Int) throws {
        let palette = testPalette(colours)
        let index = { (x: Int, y: Int) in (x * 3 + y * 5) % colours }
        let rows = bottomUp(5) { y in BMPWriter.packed((0..<7).map { index($0, y) }, bits: bits) }
        let file = BMPWriter(width: 7, height: 5, bitCount: bits, palette: palette, pixels: BMPWriter.rows(rows)).bytes()
        let decoded = try decodeBMP(file)
        #expect(decoded == image(width: 7, height: 5) { x, y in palette[index(x, y)] })
        #expect(decoded.hasAlpha == false)
    }

    @Test("an OS/2 1.x file (BITMAPCOREHEADER) has 3-byte BGR palette entries")
    func coreHeader() throws {
        let palette = testPalette(16)
        let index = { (x: Int, y: Int) in (x + 2 * y) % 16 }
        let rows = bottomUp(5) { y in BMPWriter.packed((0..<7).map { index($0, y) }, bits: 4) }
        let file = BMPWriter(header: .core, width: 7, height: 5, bitCount: 4, palette: palette, pixels: BMPWriter.rows(rows)).bytes()
        #expect(try decodeBMP(file) == image(width: 7, height: 5) { x, y in palette[index(x, y)] })
    }

    @Test("a palette with colours-used 0 holds as many entries as fit before the pixel data")
    func implicitPaletteSize() throws {
        let palette = testPalette(6)
        let rows = bottomUp(3) { y in (0..<5).map { UInt8(($0 + y) % 6) } }
        let file = BMPWriter(
            width: 5, height: 3, bitCount: 8, palette: palette, colorsUsed: 0, pixels: BMPWriter.rows(rows)
        ).bytes()
        #expect(try decodeBMP(file) == image(width: 5, height: 3) { x, y in palette[(x + y) % 6] })
    }

    @Test("a top-down 8-bit file (negative height) keeps its first row at the top")
    func topDown() throws {
        let palette = testPalette(3)
        let rows = (0..<4).map { y in (0..<3).map { UInt8(y == 0 ? 2 : ($0 + y) % 2) } }
        let file = BMPWriter(width: 3, height: -4, bitCount: 8, palette: palette, pixels: BMPWriter.rows(rows)).bytes()
        #expect(try ImageProbe.probe(file).size == PixelSize(width: 3, height: 4))
        let decoded = try decodeBMP(file)
        #expect(decoded == image(width: 3, height: 4) { x, y in palette[y == 0 ? 2 : (x + y) % 2] })
    }

    @Test("an index past a short palette is an error naming the pixel and the palette size")
    func indexOutOfRange() throws {
        let rows = bottomUp(2) { y in [0, 1, y == 0 ? 9 : 2] as [Int] }.map { BMPWriter.packed($0, bits: 4) }
        let file = BMPWriter(width: 3, height: 2, bitCount: 4, palette: testPalette(4), pixels: BMPWriter.rows(rows)).bytes()
        let error = darkroomError { try decodeBMP(file) }
        #expect(error == .corrupt(.bmp, detail: "pixel (2, 0) uses palette index 9, but the palette has only 4 colours"))
    }

    @Test("a palette image whose palette is missing entirely is corrupt")
    func noPalette() throws {
        let file = BMPWriter(width: 2, height: 1, bitCount: 8, palette: [], pixels: [0, 0, 0, 0]).bytes()
        guard case .corrupt(.bmp, let detail) = darkroomError({ try decodeBMP(file) }) else {
            Issue.record("expected .corrupt(.bmp, …)")
            return
        }
        #expect(detail.contains("no palette"))
    }
}
