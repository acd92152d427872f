import DarkroomCore
import DarkroomTestSupport
import DarkroomFilters
import Testing

@Suite("Resizing images with alpha: transparent colours never bleed")
struct ResizeAlphaTests {
    /// Opaque red above the diagonal `x + y = 14`, fully transparent *green* below it, so
    /// that resizing either axis blends across the boundary.
    static let redBesideClearGreen = Image(width: 16, height: 12, hasAlpha: true) { p in
        for y in 0..<12 {
            for x in 0..<16 {
                let i = (y * 16 + x) * 4
                if x + y < 14 { p[i] = 255; p[i + 1] = 0; p[i + 2] = 0; p[i + 3] = 255 }
                else { p[i] = 0; p[i + 1] = 255; p[i + 2] = 0; p[i + 3] = 0 }
            }
        }
    }

    @Test("no green fringe next to transparent green pixels", arguments: ResamplingKernel.allCases)
    func noFringe(kernel: ResamplingKernel) throws {
        let sizes = [PixelSize(width: 5, height: 4), PixelSize(width: 7, height: 12), PixelSize(width: 16, height: 5),
                     PixelSize(width: 48, height: 36)]
        for size in sizes {
            let out = try Resampler.resize(Self.redBesideClearGreen, to: size, kernel: kernel)
            var partial = 0
            for i in Swift.stride(from: 0, to: out.pixels.count, by: 4) where out.pixels[i + 3] > 0 {
                #expect(out.pixels[i] == 255 && out.pixels[i + 1] == 0 && out.pixels[i + 2] == 0,
                        "\(kernel) \(size): \(out.pixels[i..<i + 4])")
                if out.pixels[i + 3] < 255 { partial += 1 }
            }
            // The boundary really was blended (alpha fades), so the check above was not vacuous;
            // the box enlarging is nearest-neighbour and blends nothing.
            if kernel != .box || size.width < 16 { #expect(partial > 0, "\(kernel) \(size)") }
        }
    }

    @Test("without premultiplying, the same blend would be green-tinted")
    func straightBlendWouldFringe() throws {
        // The same pixels flagged opaque skip the alpha path: the colours average.
        let straight = try Image(width: 16, height: 12, pixels: Self.redBesideClearGreen.pixels, hasAlpha: false)
        let out = try Resampler.resize(straight, to: PixelSize(width: 5, height: 4), kernel: .bilinear)
        #expect(out.pixel(x: 2, y: 2).g > 50)
    }

    @Test("a fully transparent image stays fully transparent", arguments: ResamplingKernel.allCases)
    func fullyTransparent(kernel: ResamplingKernel) throws {
        let clear = TestImages.constant(RGBA(r: 30, g: 200, b: 90, a: 0), width: 20, height: 10, hasAlpha: true)
        let sizes = [PixelSize(width: 3, height: 7), PixelSize(width: 41, height: 10), PixelSize(width: 20, height: 3)]
        for size in sizes {
            let out = try Resampler.resize(clear, to: size, kernel: kernel)
            #expect(out.hasAlpha)
            #expect(out.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 0 })
        }
    }

    @Test("the alpha gradient fixture resizes like its formula")
    func alphaGradient() throws {
        // A = 255 − 4x is linear, so a bilinear 2× shrink keeps the formula at the new centres.
        let out = try Resampler.resize(Pattern.gradient(alpha: true), to: PixelSize(width: 32, height: 24),
                                       kernel: .bilinear)
        for x in 1..<31 {
            let sourceX = (Double(x) + 0.5) * 2 - 0.5
            #expect(abs(Double(out.pixel(x: x, y: 10).a) - (255 - 4 * sourceX)) <= 1, "x=\(x)")
            // Straight red = 4x is linear too, but weighted by alpha: close to, not exactly, 4·sourceX.
            #expect(abs(Double(out.pixel(x: x, y: 10).r) - 4 * sourceX) <= 2, "x=\(x)")
        }
    }
}
