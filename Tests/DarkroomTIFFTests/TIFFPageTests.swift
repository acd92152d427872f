import Darkroom
import DarkroomCore
import DarkroomTestSupport
import DarkroomTIFF
import Testing

// MARK: - Pages

@Suite("TIFF pages: the first by default, any by DecodeOptions.page, each with its own size and orientation")
struct TIFFPageTests {
    /// Three grey pages: 4×3 level 10, 5×2 level 20 (orientation 6), 2×2 level 30.
    private let file: [UInt8] = {
        var second = TIFFWriter.Page(width: 5, height: 2, photometric: 1, samples: Array(repeating: 20, count: 10))
        second.orientation = 6
        return TIFFWriter(pages: [
            TIFFWriter.Page(width: 4, height: 3, photometric: 1, samples: Array(repeating: 10, count: 12)),
            second,
            TIFFWriter.Page(width: 2, height: 2, photometric: 1, samples: Array(repeating: 30, count: 4)),
        ]).bytes()
    }()

    @Test("the page count, and page 0 by default")
    func firstPage() throws {
        #expect(try TIFFDecoder.pageCount(in: file) == 3)
        let image = try decodeTIFF(file)
        #expect(image.size == PixelSize(width: 4, height: 3) && image.pixel(x: 0, y: 0).r == 10)
    }

    @Test("a later page comes out at its own size, turned by its own orientation tag")
    func laterPages() throws {
        let second = try decodeTIFF(file, options: DecodeOptions(page: 1))
        #expect(second.size == PixelSize(width: 2, height: 5) && second.pixel(x: 1, y: 4).r == 20)
        let third = try decodeTIFF(file, options: DecodeOptions(page: 2))
        #expect(third.size == PixelSize(width: 2, height: 2) && third.pixel(x: 0, y: 0).r == 30)
    }

    @Test("a page past the last is an error naming the page count")
    func missingPage() throws {
        #expect(throws: DarkroomError.invalidArgument(name: "page", value: "3", expected: "an existing page (page 3 does not exist: the file has 3)")) {
            try decodeTIFF(file, options: DecodeOptions(page: 3))
        }
    }

    @Test("a format without pages refuses any page but 0, through the standard registry")
    func singlePageFormats() throws {
        let png = try Registry.standard.encode(Image(width: 1, height: 1, pixels: [1, 2, 3, 255], hasAlpha: false), options: EncodeOptions(format: .png))
        #expect(throws: DarkroomError.invalidArgument(name: "page", value: "1", expected: "0: a PNG file has one page")) {
            try Registry.standard.decode(png, options: DecodeOptions(page: 1))
        }
        #expect(try Registry.standard.decode(file, options: DecodeOptions(page: 2)).size == PixelSize(width: 2, height: 2))
    }

    @Test("the standard registry decodes TIFF with libtiff")
    func standardWiring() throws {
        let header = try ImageProbe.probe(file)
        #expect(try Registry.standard.decoder(for: header, options: DecodeOptions()).name == "libtiff")
    }
}
