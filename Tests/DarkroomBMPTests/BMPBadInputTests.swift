import DarkroomBMP
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Bad input

/// A valid 24-bit 7×5 file to break.
private func validFile() -> BMPWriter {
    let rows = bottomUp(5) { (y: Int) -> [UInt8] in (0..<7).flatMap { x -> [UInt8] in [UInt8(x), UInt8(y), 9] } }
    return BMPWriter(width: 7, height: 5, bitCount: 24, pixels: BMPWriter.rows(rows))
}

/// The error decoding `file` throws with the caller's header of a 7×5 BMP (no probe).
private func error(of file: [UInt8]) -> DarkroomError? {
    darkroomError { try BMPDecoder().decode(file, header: ImageHeader(format: .bmp, width: 7, height: 5), options: DecodeOptions()) }
}

@Suite("Broken BMP data is a clear error, never a partial image or a crash")
struct BMPBadInputTests {
    @Test("pixel data cut short is truncated, naming the rows present")
    func truncatedPixels() throws {
        let whole = validFile().bytes()
        let cut = Array(whole[..<(whole.count - 30)])
        #expect(error(of: cut) == .truncated(.bmp, detail: "the pixel data holds 90 bytes from offset 54, 3 of 5 rows of 24 bytes"))
    }

    @Test("a file cut anywhere before its last pixel byte never decodes")
    func truncatedEverywhere() throws {
        let whole = validFile().bytes()
        for cut in 1..<(whole.count - 3) {  // the last row's 3 padding bytes may be left out
            #expect(error(of: Array(whole[..<cut])) != nil, "cut at byte \(cut)")
        }
        #expect(error(of: Array(whole[..<(whole.count - 3)])) == nil)
    }

    @Test("a 100000×100000 header is refused by the limits at once, before any allocation")
    func hostileSize() throws {
        var file = validFile()
        file.width = 100_000
        file.height = 100_000
        let bytes = file.bytes()
        let expected = DarkroomError.tooManyPixels(width: 100_000, height: 100_000, limit: DecodeLimits.defaultMaxPixels)
        let elapsed = ContinuousClock().measure {
            #expect(throws: expected) { try decodeBMP(bytes) }
            // The decoder reads the size itself even when the caller's header is a small one.
            #expect(error(of: bytes) == expected)
        }
        #expect(elapsed < .seconds(1))
        #expect(throws: DarkroomError.tooManyPixels(width: 7, height: 5, limit: 30)) {
            try decodeBMP(validFile().bytes(), options: DecodeOptions(limits: DecodeLimits(maxPixels: 30)))
        }
    }

    @Test("embedded JPEG and PNG, CMYK and OS/2 Huffman are unsupported, with the reason",
          arguments: [(4, "BI_JPEG"), (5, "BI_PNG"), (11, "CMYK")])
    func unsupportedCompression(compression: Int, named: String) throws {
        var file = validFile()
        file.compression = compression
        guard case let .unsupportedFormat(.bmp, reason) = error(of: file.bytes()) else {
            Issue.record("expected .unsupportedFormat(.bmp, …)")
            return
        }
        #expect(reason.contains(named))
    }

    @Test("OS/2 2.x compression 3 is Huffman 1D, not bit fields, and unsupported")
    func os2Huffman() throws {
        var file = validFile()
        file.header = .os2(size: 64)
        file.compression = 3
        guard case let .unsupportedFormat(.bmp, reason) = error(of: file.bytes()) else {
            Issue.record("expected .unsupportedFormat(.bmp, …)")
            return
        }
        #expect(reason.contains("Huffman"))
    }

    @Test("depths that do not fit the compression are corrupt", arguments: [(1, 4), (2, 8), (3, 24), (6, 8), (0, 0), (0, 7)])
    func depthMismatch(compression: Int, bits: Int) throws {
        var file = validFile()
        file.compression = compression
        file.bitCount = bits
        guard case .corrupt(.bmp, _) = error(of: file.bytes()) else {
            Issue.record("expected .corrupt(.bmp, …) for compression \(compression) with \(bits) bits")
            return
        }
    }

    @Test("a DIB header size BMP does not have is corrupt", arguments: [0, 11, 13, 99, 200, 0x7FFF_FFFF])
    func badHeaderSize(size: Int) throws {
        var bytes = validFile().bytes()
        bytes.replaceSubrange(14..<18, with: BMPWriter.le32(size))
        guard case .corrupt(.bmp, let detail) = error(of: bytes) else {
            Issue.record("expected .corrupt(.bmp, …)")
            return
        }
        #expect(detail.contains("DIB header size \(size)"))
    }

    @Test("a zero or negative width and a zero height are invalid dimensions", arguments: [(0, 5), (-7, 5), (7, 0)])
    func badSize(width: Int, height: Int) throws {
        var file = validFile()
        file.width = width
        file.height = height
        #expect(error(of: file.bytes()) == .invalidDimensions(.bmp, width: width, height: height))
    }

    @Test("a pixel data offset inside the headers or past the end is refused")
    func badOffsets() throws {
        var inside = validFile()
        inside.dataOffset = 20
        #expect(error(of: inside.bytes())
            == .corrupt(.bmp, detail: "the pixel data offset 20 points inside the headers, which end at byte 54"))
        var past = validFile()
        past.dataOffset = 0xFFFF_FFF0
        guard case .truncated(.bmp, _) = error(of: past.bytes()) else {
            Issue.record("expected .truncated(.bmp, …)")
            return
        }
    }

    @Test("a mask with bits outside a 16-bit pixel is corrupt")
    func maskTooWide() throws {
        let file = BMPWriter(width: 1, height: 1, bitCount: 16, compression: 3, masks: [0xF_0000, 0x07E0, 0x001F], pixels: [0, 0, 0, 0])
        #expect(error(of: file.bytes()) == .corrupt(.bmp, detail: "the red mask 0xf0000 has bits beyond the 16-bit pixel"))
    }

    @Test("bit fields missing after a 40-byte header are truncated")
    func missingMasks() throws {
        let bytes = BMPWriter(width: 1, height: 1, bitCount: 32, compression: 3, masks: [], pixels: []).bytes()
        guard case .truncated(.bmp, _) = error(of: bytes) else {
            Issue.record("expected .truncated(.bmp, …)")
            return
        }
    }

    @Test("bytes that are not BMP are refused")
    func notBMP() {
        #expect(error(of: Fixtures.bytes("gradient-rgba.png")) == .corrupt(.bmp, detail: "the file does not start with the signature 'BM'"))
        #expect(error(of: []) == .emptyInput)
    }

    @Test("random byte flips never crash and never return a wrongly sized image")
    func randomFlips() throws {
        var generator = SeededGenerator(seed: 0x5EED_0B3B)
        // A flipped size byte can make a run-length file claim millions of pixels (which RLE
        // may legitimately cover in a few bytes); a 1-megapixel limit keeps the test fast.
        let options = DecodeOptions(limits: DecodeLimits(maxPixels: 1 << 20))
        let originals = BMPFixtures.names.map(BMPFixtures.bytes) + [validFile().bytes()]
        for original in originals {
            for _ in 0..<300 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 2..<min(bytes.count, 160), using: &generator)
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
                let header = ImageHeader(format: .bmp, width: 7, height: 5)
                if let image = try? BMPDecoder().decode(bytes, header: header, options: options) {
                    #expect(image.pixels.count == image.width * image.height * 4)
                }
            }
        }
    }
}
