import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - Pixelate

@Suite("Pixelate averages top-left anchored blocks")
struct ConvolutionPixelateTests {
    @Test("blocks and partial edge blocks hold the rounded mean of their own pixels")
    func small() throws {
        // size 2 on 3×2: the left block averages 10, 20, 40, 50 → 30;
        // the cut-off right block averages 30 and 61 → 45.5 → 46.
        let image = greyImage(3, 2, [10, 20, 30, 40, 50, 61])
        let out = try PixelateFilter(size: 2).apply(to: image)
        #expect(maxDifference(out, greyImage(3, 2, [30, 30, 46, 30, 30, 46]).pixels) <= 1)
        #expect(!out.hasAlpha)
    }

    @Test("colour is weighted by alpha and alpha is the plain mean")
    func weighted() throws {
        // red at α 200 and blue at α 50: alpha (200 + 50)/2 = 125,
        // red 255·200/250 = 204, blue 255·50/250 = 51.
        let image = makeImage(2, 1, [255, 0, 0, 200, 0, 0, 255, 50])
        let out = try PixelateFilter(size: 2).apply(to: image)
        #expect(maxDifference(out, [204, 0, 51, 125, 204, 0, 51, 125]) <= 1)
        let clear = makeImage(2, 1, [255, 9, 9, 0, 1, 2, 3, 0])
        #expect(try PixelateFilter(size: 2).apply(to: clear).pixels == [0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test("every block is uniform and equals the mean computed the slow way", arguments: [1, 3, 8, 40])
    func uniform(size: Int) throws {
        let image = Pattern.gradient(alpha: false, width: 37, height: 29)
        let out = try PixelateFilter(size: size).apply(to: image)
        for top in stride(from: 0, to: 29, by: size) {
            for left in stride(from: 0, to: 37, by: size) {
                let xs = left..<min(37, left + size), ys = top..<min(29, top + size)
                let n = Double(xs.count * ys.count)
                for c in 0..<3 {
                    var total = 0.0
                    for y in ys { for x in xs { total += Double(image.pixels[(y * 37 + x) * 4 + c]) } }
                    let mean = total / n
                    for y in ys {
                        for x in xs {
                            let v = Double(out.pixels[(y * 37 + x) * 4 + c])
                            #expect(abs(v - mean) <= 0.5001, "block (\(left), \(top)) channel \(c)")
                        }
                    }
                }
            }
        }
    }

    @Test("pixelating twice with the same size changes nothing")
    func idempotent() throws {
        let image = Pattern.gradient(alpha: true, width: 45, height: 33)
        let once = try PixelateFilter(size: 6).apply(to: image)
        #expect(try PixelateFilter(size: 6).apply(to: once) == once)
    }

    @Test("a block larger than the image averages the whole image")
    func oversized() throws {
        let out = try PixelateFilter(size: 1024).apply(to: greyImage(2, 2, [0, 10, 20, 31]))
        #expect(out.pixels == greyImage(2, 2, [15, 15, 15, 15]).pixels)
    }
}
