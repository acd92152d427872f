import DarkroomCore
import DarkroomTestSupport
import DarkroomFilters
import Testing

@Suite("Resizing produces exactly the requested size and keeps constant images constant")
struct ResizeBasicsTests {
    static let sizes = [
        PixelSize(width: 1, height: 1), PixelSize(width: 7, height: 5), PixelSize(width: 13, height: 40),
        PixelSize(width: 61, height: 3), PixelSize(width: 90, height: 70),
    ]

    @Test("output sizes are exact", arguments: ResamplingKernel.allCases)
    func exactSizes(kernel: ResamplingKernel) throws {
        let source = Pattern.gradient()
        for size in Self.sizes {
            let out = try Resampler.resize(source, to: size, kernel: kernel)
            #expect(out.size == size)
            #expect(out.pixels.count == size.width * size.height * 4)
            #expect(out.hasAlpha == false)
        }
    }

    @Test("a constant opaque image stays exactly constant", arguments: ResamplingKernel.allCases)
    func constantOpaque(kernel: ResamplingKernel) throws {
        let colour = RGBA(r: 200, g: 17, b: 99)
        let source = TestImages.constant(colour, width: 30, height: 20, hasAlpha: false)
        for size in Self.sizes {
            let out = try Resampler.resize(source, to: size, kernel: kernel)
            #expect(out == TestImages.constant(colour, width: size.width, height: size.height, hasAlpha: false),
                    "\(kernel) to \(size)")
        }
    }

    @Test("a constant translucent image stays constant", arguments: ResamplingKernel.allCases)
    func constantTranslucent(kernel: ResamplingKernel) throws {
        for colour in [RGBA(r: 200, g: 100, b: 50, a: 128), RGBA(r: 10, g: 250, b: 128, a: 255),
                       RGBA(r: 255, g: 0, b: 77, a: 9)] {
            let source = TestImages.constant(colour, width: 30, height: 20, hasAlpha: true)
            for size in Self.sizes {
                let out = try Resampler.resize(source, to: size, kernel: kernel)
                let expected = TestImages.constant(colour, width: size.width, height: size.height, hasAlpha: true)
                // Alpha exactly; colours within one level (un-premultiplying a faint pixel rounds).
                #expect(ImageComparison.maxAbsoluteError(out, expected) <= (colour.a < 16 ? 1 : 0),
                        "\(colour) \(kernel) to \(size)")
                #expect(out.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == colour.a })
            }
        }
    }

    @Test("one-pixel and one-line images resize to constants and lines", arguments: [false, true])
    func tinySources(alpha: Bool) throws {
        let dot = TestImages.constant(RGBA(r: 9, g: 99, b: 199, a: alpha ? 99 : 255), width: 1, height: 1,
                                      hasAlpha: alpha)
        for size in [PixelSize(width: 1, height: 7), PixelSize(width: 6, height: 1), PixelSize(width: 5, height: 4)] {
            let out = try Resampler.resize(dot, to: size)
            let expected = TestImages.constant(dot.pixel(x: 0, y: 0), width: size.width, height: size.height,
                                               hasAlpha: alpha)
            #expect(ImageComparison.maxAbsoluteError(out, expected) <= 1, "1x1 → \(size)")
        }
        // A one-pixel-high ramp keeps its order along x when stretched and squeezed.
        let line = TestImages.grey(width: 9, height: 1) { x, _ in UInt8(x * 30) }
        for size in [PixelSize(width: 4, height: 3), PixelSize(width: 30, height: 1)] {
            let out = try Resampler.resize(line, to: size, kernel: .bilinear)
            let reds = (0..<size.width).map { out.pixel(x: $0, y: size.height - 1).r }
            #expect(reds == reds.sorted(), "\(size): \(reds)")
        }
    }

    @Test("resizing to the same size returns equal pixels")
    func identity() throws {
        for image in [Pattern.gradient(), Pattern.gradient(alpha: true), Pattern.greyAlpha()] {
            for kernel in ResamplingKernel.allCases {
                #expect(try Resampler.resize(image, to: image.size, kernel: kernel) == image)
            }
        }
    }

    @Test("an axis that does not change is left exactly as it was")
    func unchangedAxis() throws {
        // Width only: every column keeps its vertical profile, so rows stay distinct.
        let source = Pattern.blocks()
        let out = try Resampler.resize(source, to: PixelSize(width: 16, height: source.height))
        for y in 0..<source.height {
            #expect(out.pixel(x: 5, y: y).g == source.pixel(x: 20, y: y).g)
        }
    }

    @Test("zero or negative sizes throw invalidArgument")
    func invalidSizes() {
        let source = Pattern.gradient()
        for size in [PixelSize(width: 0, height: 10), PixelSize(width: 10, height: 0),
                     PixelSize(width: -4, height: 10), PixelSize(width: 10, height: -1)] {
            #expect(throws: DarkroomError.invalidArgument(
                name: "resize size", value: size.description, expected: "positive width and height")) {
                try Resampler.resize(source, to: size)
            }
        }
    }

    @Test("ringing is clamped, not wrapped around")
    func ringingClamps() throws {
        // A hard black/white edge enlarged with Lanczos3 overshoots; values must saturate.
        let step = TestImages.grey(width: 16, height: 4) { x, _ in x < 8 ? 0 : 255 }
        let out = try Resampler.resize(step, to: PixelSize(width: 48, height: 4))
        for x in 0..<48 {
            let v = out.pixel(x: x, y: 2).r
            if x < 20 { #expect(v <= 16, "x=\(x) \(v)") }
            if x > 27 { #expect(v >= 239, "x=\(x) \(v)") }
        }
    }
}
