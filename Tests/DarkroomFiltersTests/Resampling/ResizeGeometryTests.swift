import DarkroomCore
import DarkroomTestSupport
import DarkroomFilters
import Testing

@Suite("Resizing keeps the geometry: no half-pixel shift, box averages blocks, ramps stay linear")
struct ResizeGeometryTests {
    @Test("a centred dot stays centred after 4× down", arguments: ResamplingKernel.allCases)
    func centredDotDown(kernel: ResamplingKernel) throws {
        // A 2×2 dot in the middle of 64×64: its centroid is the image centre (31.5, 31.5).
        let source = TestImages.dots([(31, 31), (32, 31), (31, 32), (32, 32)], width: 64, height: 64)
        let out = try Resampler.resize(source, to: PixelSize(width: 16, height: 16), kernel: kernel)
        let c = TestImages.centroid(out)
        #expect(abs(c.x - 7.5) < 0.01 && abs(c.y - 7.5) < 0.01, "\(kernel): \(c)")
    }

    @Test("a centred dot stays centred after 3× up", arguments: ResamplingKernel.allCases)
    func centredDotUp(kernel: ResamplingKernel) throws {
        let source = TestImages.dots([(10, 10)], width: 21, height: 21)
        let out = try Resampler.resize(source, to: PixelSize(width: 63, height: 63), kernel: kernel)
        let c = TestImages.centroid(out)
        #expect(abs(c.x - 31) < 0.01 && abs(c.y - 31) < 0.01, "\(kernel): \(c)")
    }

    @Test("an off-centre dot lands at (i + 0.5)·scale − 0.5")
    func offCentreDot() throws {
        // Source dot at x = 20, y = 44 of 96×96; 4× down puts it at (20 + 0.5)/4 − 0.5 = 4.625.
        let source = TestImages.dots([(20, 44)], width: 96, height: 96)
        let out = try Resampler.resize(source, to: PixelSize(width: 24, height: 24), kernel: .bilinear)
        let c = TestImages.centroid(out)
        #expect(abs(c.x - 4.625) < 0.02 && abs(c.y - 10.625) < 0.02, "\(c)")
    }

    @Test("box 2× down is the rounded average of each 2×2 block")
    func boxHalves() throws {
        // Red, green and blue planes written out by hand; alpha opaque.
        let r: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80,
                          50, 60, 71, 80, 1, 2, 3, 4]
        let g: [UInt8] = [255, 255, 0, 0, 7, 8, 9, 10,
                          255, 254, 0, 1, 100, 200, 0, 255]
        let out = try Resampler.resize(Self.image(width: 8, red: r, green: g), to: PixelSize(width: 4, height: 1),
                                       kernel: .box)
        // (10+20+50+60)/4 = 35, (30+40+71+80)/4 = 55.25, (50+60+1+2)/4 = 28.25, (70+80+3+4)/4 = 39.25
        #expect(out.pixels.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) == [35, 55, 28, 39])
        // (255+255+255+254)/4 = 254.75, (0+0+0+1)/4 = 0.25, (7+8+100+200)/4 = 78.75,
        // (9+10+0+255)/4 = 68.5, which rounds to even
        #expect(out.pixels.enumerated().filter { $0.offset % 4 == 1 }.map(\.element) == [255, 0, 79, 68])
    }

    @Test("box 3× down is the rounded average of each 3×3 block")
    func boxThirds() throws {
        let r: [UInt8] = [0, 3, 6, 90, 90, 90,
                          9, 12, 15, 90, 91, 90,
                          18, 21, 24, 90, 90, 90]
        let out = try Resampler.resize(Self.image(width: 6, red: r, green: r), to: PixelSize(width: 2, height: 1),
                                       kernel: .box)
        // (0+3+…+24)/9 = 108/9 = 12, (8·90 + 91)/9 = 90.1
        #expect(out.pixel(x: 0, y: 0).r == 12 && out.pixel(x: 1, y: 0).r == 90)
    }

    @Test("a horizontal linear ramp stays linear in the interior", arguments: [50, 96, 200, 333])
    func rampStaysLinear(width: Int) throws {
        // R = 2x + 10 over 120 columns; output column i samples (i + 0.5)·scale − 0.5.
        let source = TestImages.grey(width: 120, height: 6) { x, _ in UInt8(2 * x + 10) }
        let out = try Resampler.resize(source, to: PixelSize(width: width, height: 6))
        let scale = 120.0 / Double(width)
        let margin = Int((3 * max(scale, 1) / scale).rounded(.up)) + 1
        for i in margin..<(width - margin) {
            let expected = 2 * ((Double(i) + 0.5) * scale - 0.5) + 10
            #expect(abs(Double(out.pixel(x: i, y: 3).r) - expected) <= 0.75, "column \(i)")
        }
    }

    /// An opaque image from red and green planes (blue 0).
    static func image(width: Int, red: [UInt8], green: [UInt8]) -> Image {
        var pixels: [UInt8] = []
        for i in red.indices { pixels += [red[i], green[i], 0, 255] }
        return try! Image(width: width, height: red.count / width, pixels: pixels, hasAlpha: false)
    }
}
