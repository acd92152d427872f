import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

private typealias T = GeometryTestImages

private func grey(_ width: Int, _ height: Int) -> Image {
    constantImage(width, height, RGBA(r: 90, g: 120, b: 150), alpha: false)
}

// MARK: - Sizes

@Suite("Resizing filters give exactly the documented output sizes")
struct GeometryResizeSizeTests {
    @Test("scale ignores the aspect ratio", arguments: [
        (100, 100, 37, 11), (7, 5, 64, 64), (1, 1, 16, 3), (300, 20, 1, 1), (50, 80, 49, 81),
    ])
    func scale(w: Int, h: Int, bw: Int, bh: Int) throws {
        let out = try ScaleFilter(width: bw, height: bh).apply(to: grey(w, h))
        #expect(out.size == PixelSize(width: bw, height: bh))
    }

    @Test("aspect-fit keeps the aspect ratio inside the box, rounding each side", arguments: [
        (1000, 333, 100, 100, 100, 33), (333, 1000, 100, 100, 33, 100), (3, 1000, 100, 100, 1, 100),
        (400, 300, 256, 256, 256, 192), (7, 5, 64, 64, 64, 46), (64, 48, 10, 100, 10, 8),
        (99, 100, 100, 100, 99, 100), (5, 5, 3, 200, 3, 3),
    ])
    func fit(w: Int, h: Int, bw: Int, bh: Int, ew: Int, eh: Int) throws {
        let out = try AspectFitFilter(width: bw, height: bh).apply(to: grey(w, h))
        #expect(out.size == PixelSize(width: ew, height: eh))
    }

    @Test("aspect-fill is always exactly the box", arguments: [
        (1000, 333, 100, 100), (333, 1000, 100, 100), (7, 5, 64, 64), (400, 300, 128, 128), (64, 48, 10, 100),
        (3, 500, 50, 7), (101, 99, 100, 100),
    ])
    func fill(w: Int, h: Int, bw: Int, bh: Int) throws {
        let out = try AspectFillFilter(width: bw, height: bh).apply(to: grey(w, h))
        #expect(out.size == PixelSize(width: bw, height: bh))
        #expect(out.pixel(x: 0, y: 0) == RGBA(r: 90, g: 120, b: 150))
    }

    @Test("upscale=false: scale clamps each side to the image's own")
    func scaleNoUpscale() throws {
        let image = grey(300, 100)
        #expect(try ScaleFilter(width: 200, height: 200, upscale: false).apply(to: image).size == PixelSize(width: 200, height: 100))
        #expect(try ScaleFilter(width: 400, height: 50, upscale: false).apply(to: image).size == PixelSize(width: 300, height: 50))
        #expect(try ScaleFilter(width: 400, height: 400, upscale: false).apply(to: image) == image)
    }

    @Test("upscale=false: aspect-fit shrinks a large image and leaves a fitting one alone")
    func fitNoUpscale() throws {
        #expect(try AspectFitFilter(width: 50, height: 50, upscale: false).apply(to: grey(200, 100)).size
                == PixelSize(width: 50, height: 25))
        #expect(try AspectFitFilter(width: 400, height: 400, upscale: false).apply(to: grey(200, 100)).size
                == PixelSize(width: 200, height: 100))
        #expect(try AspectFitFilter(width: 400, height: 400).apply(to: grey(200, 100)).size
                == PixelSize(width: 400, height: 200))
    }

    @Test("upscale=false: aspect-fill shrinks as usual when covering shrinks, else only crops")
    func fillNoUpscale() throws {
        let image = grey(100, 50)
        // Covering 40×40 shrinks (factor 0.8): 80×40, cropped to the box.
        #expect(try AspectFillFilter(width: 40, height: 40, upscale: false).apply(to: image).size
                == PixelSize(width: 40, height: 40))
        // Covering 80×80 would enlarge (factor 1.6): kept at scale 1, cropped to at most 80×80.
        #expect(try AspectFillFilter(width: 80, height: 80, upscale: false).apply(to: image).size
                == PixelSize(width: 80, height: 50))
        #expect(try AspectFillFilter(width: 500, height: 500, upscale: false).apply(to: image).size
                == PixelSize(width: 100, height: 50))
    }
}

// MARK: - Pixels

@Suite("Resizing filters keep the right pixels")
struct GeometryResizePixelTests {
    @Test("aspect-fit of an already-fitting image with upscale=false returns identical pixels")
    func fitUnchanged() throws {
        let image = T.numbered(width: 40, height: 30)
        let out = try AspectFitFilter(width: 40, height: 100, upscale: false).apply(to: image)
        #expect(out == image)
    }

    @Test("aspect-fill with upscale=false crops a small image at the gravity without resampling")
    func fillCropOnly() throws {
        let image = T.numbered(width: 100, height: 50)
        let centre = try AspectFillFilter(width: 80, height: 80, upscale: false).apply(to: image)
        #expect(centre.pixels == T.region(image, x: 10, y: 0, width: 80, height: 50))
        let east = try AspectFillFilter(width: 30, height: 60, gravity: "east", upscale: false).apply(to: image)
        // Covering 30×60 would enlarge (factor 1.2): the east 30 columns, all 50 rows.
        #expect(east.pixels == T.region(image, x: 70, y: 0, width: 30, height: 50))
        #expect(east.hasAlpha)
    }

    @Test("the kernel argument reaches the Resampler", arguments: ResamplingKernel.allCases)
    func kernel(kernel: ResamplingKernel) throws {
        let image = detailedImage(width: 48, height: 36)
        let size = PixelSize(width: 20, height: 50)
        #expect(try ScaleFilter(width: 20, height: 50, kernel: kernel).apply(to: image)
                == Resampler.resize(image, to: size, kernel: kernel))
        let fitted = try AspectFitFilter(width: 24, height: 24, kernel: kernel).apply(to: image)
        #expect(fitted == (try Resampler.resize(image, to: PixelSize(width: 24, height: 18), kernel: kernel)))
    }

    @Test("aspect-fill is one resize to the covering size, then the box cut out of it")
    func fillIsResizeThenCrop() throws {
        let image = detailedImage(width: 90, height: 40)
        let out = try AspectFillFilter(width: 30, height: 30, gravity: "east", kernel: .mitchell).apply(to: image)
        // Covering 30×30: 68×30 (67.5 rounds up); east keeps columns 38…67.
        let scaled = try Resampler.resize(image, to: PixelSize(width: 68, height: 30), kernel: .mitchell)
        #expect(out.pixels == T.region(scaled, x: 38, y: 0, width: 30, height: 30))
    }
}

// MARK: - Gravity

@Suite("aspect-fill keeps the part of the image its gravity names")
struct GeometryGravityTests {
    /// The colours at the middle of the output's four quadrants: top-left, top-right, bottom-left, bottom-right.
    private func quadrantColours(_ image: Image) -> [RGBA] {
        let qx = image.width / 4, qy = image.height / 4
        return [(qx, qy), (3 * qx, qy), (qx, 3 * qy), (3 * qx, 3 * qy)].map { image.pixel(x: $0.0, y: $0.1) }
    }

    @Test("a wide image is cut left, right or in the middle", arguments: [
        ("west", [T.red, T.red, T.blue, T.blue]), ("northwest", [T.red, T.red, T.blue, T.blue]),
        ("southwest", [T.red, T.red, T.blue, T.blue]),
        ("east", [T.green, T.green, T.yellow, T.yellow]), ("northeast", [T.green, T.green, T.yellow, T.yellow]),
        ("southeast", [T.green, T.green, T.yellow, T.yellow]),
        ("center", [T.red, T.green, T.blue, T.yellow]), ("north", [T.red, T.green, T.blue, T.yellow]),
        ("south", [T.red, T.green, T.blue, T.yellow]),
    ])
    func wide(gravity: String, expected: [RGBA]) throws {
        let out = try AspectFillFilter(width: 20, height: 20, gravity: gravity).apply(to: T.quadrants(width: 80, height: 40))
        #expect(quadrantColours(out) == expected)
    }

    @Test("a tall image is cut at the top, bottom or in the middle", arguments: [
        ("north", [T.red, T.green, T.red, T.green]), ("northeast", [T.red, T.green, T.red, T.green]),
        ("northwest", [T.red, T.green, T.red, T.green]),
        ("south", [T.blue, T.yellow, T.blue, T.yellow]), ("southeast", [T.blue, T.yellow, T.blue, T.yellow]),
        ("southwest", [T.blue, T.yellow, T.blue, T.yellow]),
        ("center", [T.red, T.green, T.blue, T.yellow]), ("east", [T.red, T.green, T.blue, T.yellow]),
        ("west", [T.red, T.green, T.blue, T.yellow]),
    ])
    func tall(gravity: String, expected: [RGBA]) throws {
        let out = try AspectFillFilter(width: 20, height: 20, gravity: gravity).apply(to: T.quadrants(width: 40, height: 80))
        #expect(quadrantColours(out) == expected)
    }

    @Test("with the box kernel the kept half is one solid colour per row band, edge to edge")
    func solid() throws {
        let out = try AspectFillFilter(width: 20, height: 20, gravity: "west", kernel: .box)
            .apply(to: T.quadrants(width: 80, height: 40))
        for y in 0..<20 {
            for x in 0..<20 { #expect(out.pixel(x: x, y: y) == (y < 10 ? T.red : T.blue)) }
        }
    }
}

// MARK: - Size hints

@Suite("Resizing filters hint the smallest decode that still gives full quality")
struct GeometrySizeHintTests {
    private let photo = PixelSize(width: 4000, height: 3000)

    @Test("scale hints 1.75× its output size, never more than the source")
    func scale() throws {
        #expect(try ScaleFilter(width: 64, height: 64).sizeHint(forSourceSize: photo) == PixelSize(width: 112, height: 112))
        #expect(try ScaleFilter(width: 5000, height: 100).sizeHint(forSourceSize: photo) == PixelSize(width: 4000, height: 175))
    }

    @Test("aspect-fit hints 1.75× the fitted size, never more than the source")
    func fit() throws {
        #expect(try AspectFitFilter(width: 256, height: 256).sizeHint(forSourceSize: photo) == PixelSize(width: 448, height: 336))
        #expect(try AspectFitFilter(width: 256, height: 256).sizeHint(forSourceSize: PixelSize(width: 100, height: 50))
                == PixelSize(width: 100, height: 50))
        #expect(try AspectFitFilter(width: 256, height: 256, upscale: false).sizeHint(forSourceSize: PixelSize(width: 100, height: 50))
                == PixelSize(width: 100, height: 50))
    }

    @Test("aspect-fill hints 1.75× the scaled size before its crop, never more than the source")
    func fill() throws {
        #expect(try AspectFillFilter(width: 128, height: 128).sizeHint(forSourceSize: photo) == PixelSize(width: 300, height: 224))
        #expect(try AspectFillFilter(width: 128, height: 128).sizeHint(forSourceSize: photo.transposed)
                == PixelSize(width: 224, height: 300))
        #expect(try AspectFillFilter(width: 800, height: 800).sizeHint(forSourceSize: PixelSize(width: 1000, height: 500))
                == PixelSize(width: 1000, height: 500))
    }

    @Test("filters that need every pixel give no hint")
    func none() throws {
        let filters: [any ImageFilter] = [
            try CropFilter(x: 0, y: 0, width: 10, height: 10), try RotateFilter(angle: 90), try FlipFilter(),
            try FlopFilter(), try PadFilter(width: 10, height: 10), try ExtendFilter(top: 1),
        ]
        for filter in filters { #expect(filter.sizeHint(forSourceSize: photo) == nil, "\(filter.identifier)") }
    }

    @Test("each resize hints its own size times the residual it is given, at least 1×")
    func residual() throws {
        #expect(try ScaleFilter(width: 64, height: 64).sizeHint(forSourceSize: photo, residual: 1) == PixelSize(width: 64, height: 64))
        #expect(try AspectFitFilter(width: 256, height: 256).sizeHint(forSourceSize: photo, residual: 1.5)
                == PixelSize(width: 384, height: 288))
        #expect(try AspectFillFilter(width: 128, height: 128).sizeHint(forSourceSize: photo, residual: 1)
                == PixelSize(width: 171, height: 128))
        #expect(try AspectFitFilter(width: 256, height: 256).sizeHint(forSourceSize: photo, residual: 0.5)
                == PixelSize(width: 256, height: 192))
        // Filters that need every pixel ignore the residual.
        #expect(try CropFilter(x: 0, y: 0, width: 10, height: 10).sizeHint(forSourceSize: photo, residual: 1) == nil)
    }

    @Test("a blur of at least 1 px right after a resize lets the resize decode with no residual")
    func blurAfterResize() throws {
        let source = PixelSize(width: 2560, height: 1600)
        let fit = try AspectFitFilter(width: 1024, height: 16384)
        #expect(FilterChain([fit]).sizeHint(forSourceSize: source) == PixelSize(width: 1792, height: 1120))
        #expect(FilterChain([fit, try BlurFilter(sigma: 4)]).sizeHint(forSourceSize: source)
                == PixelSize(width: 1024, height: 640))
        #expect(FilterChain([fit, try BlurFilter(sigma: 1)]).sizeHint(forSourceSize: source)
                == PixelSize(width: 1024, height: 640))
        // A lighter blur, a sharpen, or a blur that does not come right after keep the residual.
        #expect(FilterChain([fit, try BlurFilter(sigma: 0.5)]).sizeHint(forSourceSize: source)
                == PixelSize(width: 1792, height: 1120))
        #expect(FilterChain([fit, try SharpenFilter()]).sizeHint(forSourceSize: source) == PixelSize(width: 1792, height: 1120))
        #expect(FilterChain([fit, try FlipFilter(), try BlurFilter(sigma: 4)]).sizeHint(forSourceSize: source)
                == PixelSize(width: 1792, height: 1120))
        // A chain that starts with a blur decodes at full size, as before.
        #expect(FilterChain([try BlurFilter(sigma: 4), fit]).sizeHint(forSourceSize: source) == nil)
        #expect(try BlurFilter(sigma: 4).smoothingSigma == 4)
        #expect(fit.smoothingSigma == 0)
    }

    @Test("a decode at any size at least the hint gives the same output size", arguments: [1, 2, 4])
    func sameSize(denominator: Int) throws {
        // A 960×720 source decoded at 1/1, 1/2 and 1/4 (all at least every hint below).
        let decoded = grey(960 / denominator, 720 / denominator)
        #expect(try ScaleFilter(width: 200, height: 100).apply(to: decoded).size == PixelSize(width: 200, height: 100))
        #expect(try AspectFitFilter(width: 160, height: 160).apply(to: decoded).size == PixelSize(width: 160, height: 120))
        #expect(try AspectFillFilter(width: 100, height: 150).apply(to: decoded).size == PixelSize(width: 100, height: 150))
        #expect(try ScaleFilter(width: 2000, height: 100, upscale: false).apply(to: grey(240, 180)).size
                == PixelSize(width: 240, height: 100))
    }
}
