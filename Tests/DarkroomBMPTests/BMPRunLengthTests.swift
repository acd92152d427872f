import DarkroomBMP
import DarkroomCore
import Testing

// MARK: - RLE8 and RLE4

/// The expected image of a run-length file: `indices[storedRow][x]` (nil = never written,
/// transparent black), stored rows bottom-up.
private func expectedImage(_ indices: [[Int?]], palette: [RGBA], hasAlpha: Bool) -> Image {
    let height = indices.count
    return image(width: indices[0].count, height: height, hasAlpha: hasAlpha) { x, y in
        indices[height - 1 - y][x].map { palette[$0] } ?? RGBA(r: 0, g: 0, b: 0, a: 0)
    }
}

@Suite("Run-length BMPs: encoded and literal runs, deltas, end of line and end of bitmap")
struct BMPRunLengthTests {
    @Test("RLE8 with a literal run, a delta, a clipped run and an early end leaves skipped pixels transparent")
    func rle8() throws {
        let palette = testPalette(8)
        let data: [UInt8] = [
            7, 1, 0, 0,  // row 0: seven 1s, end of line
            0, 3, 2, 3, 4, 0, 2, 5, 0, 2, 1, 1,  // row 1: literal 2 3 4 (padded), two 5s, delta (+1, +1)
            1, 6, 0, 0,  // row 2 from x = 6: one 6, end of line
            10, 2, 0, 0,  // row 3: ten 2s, the last three past the edge
            0, 4, 1, 2, 3, 4, 0, 1,  // row 4: literal 1 2 3 4, end of bitmap
        ]
        let file = BMPWriter(width: 7, height: 5, bitCount: 8, compression: 1, palette: palette, pixels: data).bytes()
        let decoded = try decodeBMP(file)
        let expected = expectedImage([
            [1, 1, 1, 1, 1, 1, 1],
            [2, 3, 4, 5, 5, nil, nil],
            [nil, nil, nil, nil, nil, nil, 6],
            [2, 2, 2, 2, 2, 2, 2],
            [1, 2, 3, 4, nil, nil, nil],
        ], palette: palette, hasAlpha: true)
        #expect(decoded == expected)
        #expect(decoded.hasAlpha)
    }

    @Test("RLE4 alternates nibbles in runs, reads odd literal runs padded to 16 bits, and skips with deltas")
    func rle4() throws {
        let palette = testPalette(16)
        let data: [UInt8] = [
            7, 0x12, 0, 0,  // row 0: 1 2 1 2 1 2 1
            0, 5, 0x34, 0x56, 0x70, 0, 2, 0x89, 0, 0,  // row 1: literal 3 4 5 6 7 (3 bytes + pad), 8 9
            0, 2, 3, 0, 3, 0xAB, 0, 0,  // row 2: delta (+3, 0), A B A
            0, 2, 0, 1,  // row 3 is skipped by a delta down one row
            7, 0xCD, 0, 1,  // row 4: C D C D C D C, end of bitmap
        ]
        let file = BMPWriter(width: 7, height: 5, bitCount: 4, compression: 2, palette: palette, pixels: data).bytes()
        let expected = expectedImage([
            [1, 2, 1, 2, 1, 2, 1],
            [3, 4, 5, 6, 7, 8, 9],
            [nil, nil, nil, 10, 11, 10, nil],
            [nil, nil, nil, nil, nil, nil, nil],
            [12, 13, 12, 13, 12, 13, 12],
        ], palette: palette, hasAlpha: true)
        #expect(try decodeBMP(file) == expected)
    }

    @Test("an RLE8 file that writes every pixel is opaque, even without the end markers")
    func fullCoverage() throws {
        let palette = testPalette(3)
        let data: [UInt8] = [3, 0, 0, 0, 1, 1, 2, 2]  // row 0: 0 0 0; row 1: 1 2 2, then the data ends
        let file = BMPWriter(width: 3, height: 2, bitCount: 8, compression: 1, palette: palette, pixels: data).bytes()
        let decoded = try decodeBMP(file)
        #expect(decoded == expectedImage([[0, 0, 0], [1, 2, 2]], palette: palette, hasAlpha: false))
        #expect(decoded.hasAlpha == false)
    }

    @Test("a top-down RLE8 file is drawn from the top")
    func topDown() throws {
        let palette = testPalette(3)
        let data: [UInt8] = [2, 1, 0, 0, 2, 2, 0, 1]
        let file = BMPWriter(width: 2, height: -2, bitCount: 8, compression: 1, palette: palette, pixels: data).bytes()
        #expect(try decodeBMP(file) == image(width: 2, height: 2) { _, y in palette[y + 1] })
    }

    @Test("RLE data that ends before the image does is truncated", arguments: [
        [7, 1, 0, 0, 3, 1] as [UInt8],  // ends inside row 1
        [7, 1, 0, 0, 0, 5, 1, 2],  // ends inside a literal run
        [7, 1, 0, 2, 1],  // ends inside a delta
    ])
    func truncated(data: [UInt8]) throws {
        let file = BMPWriter(width: 7, height: 5, bitCount: 8, compression: 1, palette: testPalette(4), pixels: data).bytes()
        guard case .truncated(.bmp, _) = darkroomError({ try decodeBMP(file) }) else {
            Issue.record("expected .truncated(.bmp, …)")
            return
        }
    }

    @Test("at fail-on = none cut RLE data keeps the pixels written, the rest transparent, with a warning")
    func truncatedLetThrough() throws {
        let file = BMPWriter(width: 7, height: 5, bitCount: 8, compression: 1, palette: testPalette(4), pixels: [7, 1, 0, 0, 3, 1]).bytes()
        let log = DecodeWarningLog()
        let image = try decodeBMP(file, options: DecodeOptions(failOn: .none, warnings: log.handler))
        let palette = testPalette(4)
        #expect(image.hasAlpha)
        #expect(image.pixel(x: 6, y: 4) == palette[1], "row 0 (the bottom) was written")
        #expect(image.pixel(x: 2, y: 3) == palette[1], "row 1 got its first three pixels")
        #expect(image.pixel(x: 3, y: 3) == RGBA(r: 0, g: 0, b: 0, a: 0))
        #expect(log.warnings.map(\.damage) == [.truncated])
        #expect(log.warnings.first?.format == .bmp)
    }

    @Test("an RLE index past the palette is an error naming the pixel")
    func indexOutOfRange() throws {
        let data: [UInt8] = [2, 1, 1, 7, 0, 1]
        let file = BMPWriter(width: 3, height: 2, bitCount: 8, compression: 1, palette: testPalette(4), pixels: data).bytes()
        #expect(darkroomError { try decodeBMP(file) }
            == .corrupt(.bmp, detail: "pixel (2, 1) uses palette index 7, but the palette has only 4 colours"))
    }
}
