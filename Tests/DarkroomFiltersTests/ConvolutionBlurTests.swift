import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - Blur: exact small cases

@Suite("Blur is a normalised Gaussian with clamped edges")
struct ConvolutionBlurMathTests {
    @Test("a 3×1 spike spreads by the σ = 0.5 weights")
    func spike() throws {
        // weights (radius 2): 0.78657, 0.10645, 0.00026; the ends see the clamped zeros.
        // 0.10645·255 + 0.00026·0 = 27.14; 0.78657·255 = 200.58
        let out = try BlurFilter(sigma: 0.5).apply(to: greyImage(3, 1, [0, 255, 0]))
        #expect(maxDifference(out, greyImage(3, 1, [27, 201, 27]).pixels) <= 1)
        #expect(!out.hasAlpha)
    }

    @Test("the same spike standing upright blurs the same way")
    func spikeVertical() throws {
        let out = try BlurFilter(sigma: 0.5).apply(to: greyImage(1, 3, [0, 255, 0]))
        #expect(maxDifference(out, greyImage(1, 3, [27, 201, 27]).pixels) <= 1)
    }

    @Test("colour is premultiplied: a transparent neighbour lends no colour")
    func premultiplied() throws {
        // Opaque red beside transparent green. Alpha: (w0+w1+w2)·255 = 227.8 and (w1+w2)·255 = 27.2;
        // the colour stays pure red wherever alpha is left.
        let image = makeImage(2, 1, [255, 0, 0, 255, 0, 255, 0, 0])
        let out = try BlurFilter(sigma: 0.5).apply(to: image)
        #expect(maxDifference(out, [255, 0, 0, 228, 255, 0, 0, 27]) <= 1)
    }

    @Test("a constant image stays exactly constant", arguments: [0.3, 1.5, 4, 5.9, 6, 12, 40, 100])
    func constant(sigma: Double) throws {
        let opaque = constantImage(37, 23, RGBA(r: 37, g: 150, b: 220), alpha: false)
        #expect(try BlurFilter(sigma: sigma).apply(to: opaque) == opaque)
        let translucent = constantImage(29, 31, RGBA(r: 200, g: 17, b: 99, a: 100), alpha: true)
        #expect(try BlurFilter(sigma: sigma).apply(to: translucent) == translucent)
    }

    @Test("one-pixel-wide and one-pixel-tall images blur along their length only",
          arguments: [0.5, 4, 30])
    func thin(sigma: Double) throws {
        let single = makeImage(1, 1, [10, 200, 30, 90])
        #expect(try BlurFilter(sigma: sigma).apply(to: single) == single)
        let row = greyImage(7, 1, [0, 0, 0, 255, 0, 0, 0])
        let column = greyImage(1, 7, [0, 0, 0, 255, 0, 0, 0])
        let blurredRow = try BlurFilter(sigma: sigma).apply(to: row)
        #expect(try BlurFilter(sigma: sigma).apply(to: column).pixels == blurredRow.pixels)
        #expect(blurredRow.pixel(x: 3, y: 0).r < 255 && blurredRow.pixel(x: 2, y: 0) == blurredRow.pixel(x: 4, y: 0))
    }

    /// 8-bit output cannot hold the faint far tails: rounding them loses mass even for an exact
    /// Gaussian (measured with a Double-precision Gaussian on this blob: 0.10% at σ = 3, 0.37% at
    /// σ = 8), so each σ gets that loss plus 0.1 percentage points.
    @Test("blur preserves the total premultiplied mass up to 8-bit rounding",
          arguments: [(1.5, 0.002), (3, 0.002), (8, 0.0047)])
    func mass(sigma: Double, tolerance: Double) throws {
        // A translucent blob far from the edges, so clamping never folds mass back in.
        let size = 96
        let image = Image(width: size, height: size, hasAlpha: true) { p in
            p.initialize(repeating: 0)
            for y in 40..<56 {
                for x in 38..<58 {
                    let i = (y * size + x) * 4
                    p[i] = UInt8(x * 4); p[i + 1] = 200; p[i + 2] = UInt8(y * 3); p[i + 3] = UInt8(120 + x)
                }
            }
        }
        let before = premultipliedMass(image)
        let after = premultipliedMass(try BlurFilter(sigma: sigma).apply(to: image))
        for c in 0..<4 {
            #expect(abs(after[c] - before[c]) / before[c] < tolerance, "channel \(c): \(before[c]) → \(after[c])")
        }
    }
}

// MARK: - Blur: quality against a direct Gaussian

@Suite("Blur matches a direct Double-precision Gaussian")
struct ConvolutionBlurQualityTests {
    @Test("the direct kernel (σ < 6) equals the same-radius reference to ±1", arguments: [0.8, 2, 4, 5.5])
    func direct(sigma: Double) throws {
        let image = detailedImage(width: 72, height: 48)
        let radius = Int((3 * sigma).rounded(.up))
        let out = try BlurFilter(sigma: sigma).apply(to: image)
        #expect(ImageComparison.maxAbsoluteError(out, referenceGaussian(image, sigma: sigma, radius: radius)) <= 1)
    }

    @Test("with alpha, the direct kernel equals the reference to ±1")
    func directAlpha() throws {
        let image = Pattern.gradient(alpha: true, width: 40, height: 30)
        let out = try BlurFilter(sigma: 3).apply(to: image)
        #expect(ImageComparison.maxAbsoluteError(out, referenceGaussian(image, sigma: 3, radius: 9)) <= 1)
    }

    /// Measured against an untruncated (6σ) direct Gaussian: PSNR 72.2 dB (σ 6), 70.5 (σ 9),
    /// 70.7 (σ 20), never more than 1 level off; 65.7 dB with alpha. Floor: 60 dB.
    @Test("the recursive filter (σ ≥ 6) is within 60 dB PSNR of an untruncated Gaussian", arguments: [6.0, 9, 20])
    func recursive(sigma: Double) throws {
        let image = detailedImage(width: 96, height: 64)
        let out = try BlurFilter(sigma: sigma).apply(to: image)
        let reference = referenceGaussian(image, sigma: sigma, radius: Int(6 * sigma))
        let psnr = ImageComparison.psnr(out, reference)
        #expect(psnr >= 60, "PSNR \(psnr) dB")
        #expect(ImageComparison.maxAbsoluteError(out, reference) <= 1)
    }

    @Test("with alpha, the recursive filter is within 60 dB PSNR of the reference")
    func recursiveAlpha() throws {
        let image = Pattern.gradient(alpha: true, width: 48, height: 40)
        let out = try BlurFilter(sigma: 7).apply(to: image)
        let psnr = ImageComparison.psnr(out, referenceGaussian(image, sigma: 7, radius: 42))
        #expect(psnr >= 60, "PSNR \(psnr) dB")
    }
}
