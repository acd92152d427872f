@testable import DarkroomFilters
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Huge shrink factors

@Suite("A resize that shrinks an axis of millions of pixels box-averages it first, so the weights stay small")
struct ResamplingHugeAxisTests {
    @Test("blocks are averaged weighted by alpha, and a last partial block averages what it has")
    func boxAverages() throws {
        // One column of 5 pixels: opaque red, transparent green, half-transparent blue, white, black.
        let column = try Image(width: 1, height: 5, pixels: [
            255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 255, 128, 255, 255, 255, 255, 0, 0, 0, 255,
        ])
        let reduced = AxisBoxReduction.reduced(column, rowsBy: 3)
        #expect(reduced.size == PixelSize(width: 1, height: 2))
        // (255·255 + 0 + 0·128) / 383 = 170; blue 255·128/383 = 85; alpha (255 + 0 + 128) / 3 = 128.
        #expect(reduced.pixel(x: 0, y: 0) == RGBA(r: 170, g: 0, b: 85, a: 128))
        #expect(reduced.pixel(x: 0, y: 1) == RGBA(r: 128, g: 128, b: 128, a: 255))
        let row = try Image(width: 5, height: 1, pixels: column.pixels)
        #expect(AxisBoxReduction.reduced(row, columnsBy: 3).pixels == reduced.pixels)
    }

    @Test("only axes over a million pixels shrunk more than 8× are reduced")
    func factors() {
        #expect(AxisBoxReduction.factor(source: 1 << 20, destination: 1) == 1)
        #expect(AxisBoxReduction.factor(source: 100_000_000, destination: 100) == 125_000)
        #expect(AxisBoxReduction.factor(source: 2_000_000, destination: 1_000_000) == 1)
    }

    @Test("a 1×3,000,000 strip shrunk to 1×3 is within 2 levels of the direct resize, whose weights are 100× larger")
    func tallStrip() throws {
        let height = 3_000_000
        var pixels = [UInt8](repeating: 255, count: height * 4)
        for y in 0..<height {
            let band = y * 3 / height  // red, green, blue thirds, with a ramp in each
            let level = UInt8(100 + (y % 1000) / 10)
            pixels[y * 4] = band == 0 ? level : 0
            pixels[y * 4 + 1] = band == 1 ? level : 0
            pixels[y * 4 + 2] = band == 2 ? level : 0
        }
        let strip = try Image(width: 1, height: height, pixels: pixels, hasAlpha: false)
        let size = PixelSize(width: 1, height: 3)
        let out = try Resampler.resize(strip, to: size)
        let plan = ResamplingPlan(source: strip.size, destination: size, kernel: .lanczos3, premultiplies: false)
        let direct = strip.pixels.withUnsafeBufferPointer { source in
            Image(width: 1, height: 3, hasAlpha: false) { plan.run(source: source.baseAddress!, destination: $0.baseAddress!) }
        }
        #expect(out.size == size)
        #expect(ImageComparison.maxAbsoluteError(out, direct) <= 2, "\(out.pixels) against \(direct.pixels)")
    }
}
