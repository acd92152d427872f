import Darkroom
import DarkroomCore
import DarkroomTestSupport
import DarkroomTIFF
import Testing

// MARK: - Shrink-on-load from pyramid levels

@Suite("TIFF shrink-on-load: a size hint reads the smallest pyramid level still large enough")
struct TIFFShrinkOnLoadTests {
    /// 64×48 (level 10), then reduced copies 32×24 (level 20) and 16×12 (level 30), then an
    /// unrelated 40×40 page (level 40, not a reduced copy). Orientation 6 on the first page only.
    private let pyramid: [UInt8] = {
        func page(_ width: Int, _ height: Int, level: UInt64, reduced: Bool) -> TIFFWriter.Page {
            var page = TIFFWriter.Page(width: width, height: height, photometric: 1,
                                       samples: Array(repeating: level, count: width * height))
            if reduced { page.extraTags[254] = .longs([1]) }
            return page
        }
        var first = page(64, 48, level: 10, reduced: false)
        first.orientation = 6
        return TIFFWriter(pages: [
            first, page(32, 24, level: 20, reduced: true), page(16, 12, level: 30, reduced: true), page(40, 40, level: 40, reduced: false),
        ]).bytes()
    }()

    @Test("the probe lists the reduced copies, largest first, and not the unrelated page")
    func probe() throws {
        let header = try ImageProbe.probe(pyramid)
        #expect(header.reducedResolutions == [
            ReducedResolution(page: 1, size: PixelSize(width: 32, height: 24)),
            ReducedResolution(page: 2, size: PixelSize(width: 16, height: 12)),
        ])
    }

    @Test("hints pick levels by upright size; the image is turned by the first page's orientation and remembers the full size",
          arguments: [
              (PixelSize(width: 20, height: 30), 20, PixelSize(width: 24, height: 32)),
              (PixelSize(width: 12, height: 16), 30, PixelSize(width: 12, height: 16)),
              (PixelSize(width: 13, height: 16), 20, PixelSize(width: 24, height: 32)),
              (PixelSize(width: 30, height: 40), 10, PixelSize(width: 48, height: 64)),
          ])
    func levels(hint: PixelSize, level: Int, size: PixelSize) throws {
        let header = try ImageProbe.probe(pyramid)
        let options = DecodeOptions(sizeHint: hint)
        let image = try TIFFDecoder().decode(pyramid, header: header, options: options)
        #expect(image.size == size && Int(image.pixel(x: 0, y: 0).r) == level)
        #expect(image.proportions == PixelSize(width: 48, height: 64))
        let reduced = level != 10
        #expect(TIFFDecoder().canonicalSizeHint(for: header, options: options) == (reduced ? size : nil))
        #expect(TIFFDecoder().decodedSize(for: header, options: options) == PixelSize(width: size.height, height: size.width))
    }

    @Test("an explicit page is read as asked, whatever the hint")
    func explicitPage() throws {
        let image = try Registry.standard.decode(pyramid, options: DecodeOptions(sizeHint: PixelSize(width: 1, height: 1), page: 3))
        #expect(image.size == PixelSize(width: 40, height: 40) && image.pixel(x: 0, y: 0).r == 40)
    }

    @Test("the standard registry hands the hint to libtiff: a level comes back with the full picture's proportions")
    func fittedFromLevel() throws {
        let image = try Registry.standard.decode(pyramid, options: DecodeOptions(sizeHint: PixelSize(width: 10, height: 14)))
        #expect(image.pixel(x: 0, y: 0).r == 30)
        #expect(image.proportions == PixelSize(width: 48, height: 64))
    }

    @Test("unmarked pages are levels only when each halves the one before (ImageMagick's PTIF:)")
    func halvingPages() throws {
        func pages(_ sizes: [(Int, Int)]) -> [UInt8] {
            TIFFWriter(pages: sizes.map { TIFFWriter.Page(width: $0.0, height: $0.1, photometric: 1, samples: Array(repeating: 9, count: $0.0 * $0.1)) }).bytes()
        }
        let ptif = try ImageProbe.probe(pages([(100, 61), (50, 30), (25, 15), (12, 8)]))
        #expect(ptif.reducedResolutions.map(\.page) == [1, 2, 3])
        #expect(try ImageProbe.probe(pages([(100, 61), (50, 30), (40, 15)])).reducedResolutions.isEmpty)
        #expect(try ImageProbe.probe(pages([(100, 60), (100, 60)])).reducedResolutions.isEmpty)
    }
}
