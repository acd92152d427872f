import DarkroomCore
import DarkroomTestSupport
import DarkroomTIFF
import Testing

// MARK: - Helpers

/// `file` probed and decoded by libtiff.
func decodeTIFF(_ file: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> Image {
    try TIFFDecoder().decode(file, header: ImageProbe.probe(file), options: options)
}

/// The first row's grey levels (R of each pixel).
func greys(_ image: Image) -> [UInt8] { (0..<image.width).map { image.pixel(x: $0, y: 0).r } }

// MARK: - Sample depths and formats

@Suite("TIFF samples: every integer depth, signed and floating point, min-is-white")
struct TIFFSampleTests {
    @Test("unsigned grey at 1, 2, 4, 8, 12, 16, 24 and 32 bits: 0 is black, the maximum white, the middle mid-grey",
          arguments: [1, 2, 4, 8, 12, 16, 24, 32])
    func unsignedDepths(bits: Int) throws {
        let maximum = bits == 64 ? UInt64.max : (UInt64(1) << UInt64(bits)) - 1
        let middle = maximum / 2 + 1
        let page = TIFFWriter.Page(width: 3, height: 2, bitsPerSample: bits, photometric: 1, samples: [0, middle, maximum, maximum, 0, middle])
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        let mid = UInt8((Double(middle) / Double(maximum) * 255).rounded())
        #expect(greys(image) == [0, mid, 255])
        #expect(image.pixel(x: 0, y: 1) == RGBA(r: 255, g: 255, b: 255))
        #expect(!image.hasAlpha)
    }

    @Test("big-endian files: 16- and 32-bit samples are swapped to the host's order", arguments: [16, 24, 32])
    func bigEndianSamples(bits: Int) throws {
        let maximum = (UInt64(1) << UInt64(bits)) - 1
        let page = TIFFWriter.Page(width: 2, height: 1, bitsPerSample: bits, photometric: 1, samples: [maximum / 4, maximum])
        let image = try decodeTIFF(TIFFWriter(pages: [page], bigEndian: true).bytes())
        #expect(greys(image) == [64, 255])
    }

    @Test("signed integers: negative values are black, the largest positive white", arguments: [8, 16, 32])
    func signed(bits: Int) throws {
        let top = (UInt64(1) << UInt64(bits - 1)) - 1
        let minusOne = (UInt64(1) << UInt64(bits)) - 1  // two's complement −1
        let page = TIFFWriter.Page(width: 3, height: 1, bitsPerSample: bits, photometric: 1, sampleFormat: 2, samples: [minusOne, top, top / 2])
        let half = UInt8((Double(top / 2) / Double(top) * 255).rounded())
        #expect(greys(try decodeTIFF(TIFFWriter(pages: [page]).bytes())) == [0, 255, half])
    }

    @Test("floating point at 16, 32 and 64 bits: 0…1 is black…white, clamped; NaN is black")
    func floats() throws {
        let values: [Double] = [0, 0.5, 1, 2, -1, .nan]
        let half: [UInt64] = [0x0000, 0x3800, 0x3C00, 0x4000, 0xBC00, 0x7E00]
        let pages = [
            TIFFWriter.Page(width: 6, height: 1, bitsPerSample: 16, photometric: 1, sampleFormat: 3, samples: half),
            TIFFWriter.Page(width: 6, height: 1, bitsPerSample: 32, photometric: 1, sampleFormat: 3,
                            samples: values.map { UInt64(Float($0).bitPattern) }),
            TIFFWriter.Page(width: 6, height: 1, bitsPerSample: 64, photometric: 1, sampleFormat: 3, samples: values.map(\.bitPattern)),
        ]
        for page in pages {
            #expect(greys(try decodeTIFF(TIFFWriter(pages: [page]).bytes())) == [0, 128, 255, 255, 0, 0], "\(page.bitsPerSample)-bit")
        }
    }

    @Test("min-is-white: 0 is white, at 1 and 8 bits", arguments: [1, 8])
    func minIsWhite(bits: Int) throws {
        let page = TIFFWriter.Page(width: 2, height: 1, bitsPerSample: bits, photometric: 0, samples: [0, (1 << UInt64(bits)) - 1])
        #expect(greys(try decodeTIFF(TIFFWriter(pages: [page]).bytes())) == [255, 0])
    }

    @Test("bilevel rows are padded to a whole byte: a 10-pixel-wide 1-bit image keeps its columns")
    func paddedRows() throws {
        let row0: [UInt64] = [1, 0, 1, 0, 1, 0, 1, 0, 1, 1], row1: [UInt64] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
        let page = TIFFWriter.Page(width: 10, height: 2, bitsPerSample: 1, photometric: 1, samples: row0 + row1)
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        #expect(greys(image) == row0.map { $0 == 1 ? 255 : 0 })
        #expect((0..<10).map { image.pixel(x: $0, y: 1).r } == row1.map { $0 == 1 ? 255 : 0 })
    }

    @Test("64-bit signed integers and 24-bit floats are refused by name")
    func refusedDepths() throws {
        let int64 = TIFFWriter.Page(width: 1, height: 1, bitsPerSample: 64, photometric: 1, sampleFormat: 2, samples: [0])
        #expect(throws: DarkroomError.unsupportedFormat(.tiff, reason: "64-bit integer samples are not supported")) {
            try decodeTIFF(TIFFWriter(pages: [int64]).bytes())
        }
        let float24 = TIFFWriter.Page(width: 1, height: 1, bitsPerSample: 24, photometric: 1, sampleFormat: 3, samples: [0])
        #expect(throws: DarkroomError.unsupportedFormat(.tiff, reason: "24-bit floating-point samples are not supported")) {
            try decodeTIFF(TIFFWriter(pages: [float24]).bytes())
        }
    }
}
