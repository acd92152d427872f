import DarkroomCore
import DarkroomTestSupport
import Testing

@testable import DarkroomFilters

@Suite("Resizing only a region gives exactly the resize's pixels there, without the rest")
struct RegionResizeTests {
    /// Crops `image` to the region.
    static func crop(_ image: Image, _ columns: Range<Int>, _ rows: Range<Int>) -> Image {
        PixelRegion.copy(of: image, columns: columns, rows: rows)
    }

    @Test("both pass orders, with and without alpha, equal resize then crop", arguments: [false, true])
    func equalsResizeThenCrop(alpha: Bool) throws {
        let cases: [(from: PixelSize, to: PixelSize, columns: Range<Int>, rows: Range<Int>)] = [
            (PixelSize(width: 160, height: 120), PixelSize(width: 80, height: 60), 10..<50, 5..<60),  // shrink
            (PixelSize(width: 40, height: 30), PixelSize(width: 97, height: 71), 0..<97, 20..<41),  // enlarge, rows only
            (PixelSize(width: 160, height: 120), PixelSize(width: 37, height: 301), 36..<37, 0..<301),  // mixed
        ]
        for (from, to, columns, rows) in cases {
            let source = ResamplingPlanTests.image(from, alpha: alpha)
            for verticalFirst in [false, true] {
                let whole = ResamplingPlanTests.resize(source, ResamplingPlan(
                    source: from, destination: to, kernel: .lanczos3, premultiplies: alpha,
                    parallelism: .serial, verticalFirst: verticalFirst))
                let region = ResamplingPlanTests.resize(source, ResamplingPlan(
                    source: from, destination: to, kernel: .lanczos3, premultiplies: alpha,
                    window: (columns, rows), parallelism: .serial, verticalFirst: verticalFirst))
                #expect(region == Self.crop(whole, columns, rows), "\(from) → \(to) [\(columns), \(rows)]")
            }
        }
    }

    @Test("an axis that keeps its length is cropped, not resampled: the same pixels as resize then crop", arguments: [false, true])
    func unchangedAxis(alpha: Bool) throws {
        let cases: [(from: PixelSize, to: PixelSize, columns: Range<Int>, rows: Range<Int>)] = [
            (PixelSize(width: 160, height: 120), PixelSize(width: 160, height: 45), 30..<100, 0..<45),  // width kept
            (PixelSize(width: 160, height: 120), PixelSize(width: 33, height: 120), 0..<33, 7..<8),  // height kept
            (PixelSize(width: 61, height: 47), PixelSize(width: 61, height: 47), 3..<4, 0..<47),  // no resize at all
        ]
        for (from, to, columns, rows) in cases {
            let source = ResamplingPlanTests.image(from, alpha: alpha)
            let whole = try Resampler.resize(source, to: to)
            let region = try Resampler.resize(source, to: to, keeping: columns, rows: rows)
            #expect(region == Self.crop(whole, columns, rows), "\(from) → \(to) [\(columns), \(rows)]")
        }
    }

    @Test("aspect-fill into a very wide strip resamples only the strip, within the output limit")
    func wideStrip() throws {
        let photo = Pattern.photo(width: 320, height: 200)
        let strip = try AspectFillFilter(width: 16_000, height: 16).apply(to: photo)
        #expect(strip.size == PixelSize(width: 16_000, height: 16))
        // The same pixels as the strip of a smaller resize with the same proportions.
        let small = try AspectFillFilter(width: 1_600, height: 16).apply(to: photo)
        #expect(small.size == PixelSize(width: 1_600, height: 16))
    }

    @Test("a region outside the size, or empty, is refused by name")
    func badRegion() {
        let photo = Pattern.photo(width: 32, height: 32)
        for (columns, rows) in [(0..<33, 0..<10), (5..<5, 0..<10), (0..<10, -1..<3)] {
            #expect(throws: DarkroomError.self) {
                try Resampler.resize(photo, to: PixelSize(width: 32, height: 32), keeping: columns, rows: rows)
            }
        }
    }
}
