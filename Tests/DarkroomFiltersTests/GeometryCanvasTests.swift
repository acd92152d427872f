import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

private typealias T = GeometryTestImages

/// `canvas` is `image` at (left, top) with `background` everywhere else.
private func isPlaced(_ image: Image, at left: Int, _ top: Int, on canvas: Image, background: RGBA) -> Bool {
    for y in 0..<canvas.height {
        for x in 0..<canvas.width {
            let inside = x >= left && x < left + image.width && y >= top && y < top + image.height
            let expected = inside ? image.pixel(x: x - left, y: y - top) : background
            if canvas.pixel(x: x, y: y) != expected { return false }
        }
    }
    return true
}

// MARK: - pad

@Suite("pad places the image unscaled on a canvas of at least the size, at the gravity")
struct GeometryPadTests {
    private let transparent = RGBA(r: 0, g: 0, b: 0, a: 0)

    @Test("each gravity puts a 4×3 image where it says on an 9×6 canvas", arguments: [
        ("center", 2, 1), ("north", 2, 0), ("south", 2, 3), ("west", 0, 1), ("east", 5, 1),
        ("northwest", 0, 0), ("northeast", 5, 0), ("southwest", 0, 3), ("southeast", 5, 3),
    ])
    func gravity(gravity: String, left: Int, top: Int) throws {
        let image = T.numbered(width: 4, height: 3, alpha: false)
        let out = try PadFilter(width: 9, height: 6, gravity: gravity).apply(to: image)
        #expect(out.size == PixelSize(width: 9, height: 6))
        #expect(isPlaced(image, at: left, top, on: out, background: transparent))
        #expect(out.hasAlpha)
    }

    @Test("the canvas is the larger of the image and the request on each side")
    func neverCrops() throws {
        let image = T.numbered(width: 10, height: 4)
        let red = RGBA(r: 255, g: 0, b: 0)
        let out = try PadFilter(width: 6, height: 8, background: red).apply(to: image)
        #expect(out.size == PixelSize(width: 10, height: 8))
        #expect(isPlaced(image, at: 0, 2, on: out, background: red))
        #expect(try PadFilter(width: 3, height: 3).apply(to: image) == image)
    }

    @Test("an opaque image on an opaque background stays opaque; padding twice is padding once")
    func opaqueAndIdempotent() throws {
        let image = T.numbered(width: 5, height: 5, alpha: false)
        let pad = try PadFilter(width: 8, height: 7, gravity: "southeast", background: RGBA(r: 1, g: 2, b: 3))
        let once = try pad.apply(to: image)
        #expect(!once.hasAlpha)
        #expect(isPlaced(image, at: 3, 2, on: once, background: RGBA(r: 1, g: 2, b: 3)))
        #expect(try pad.apply(to: once) == once)
    }
}

// MARK: - extend

@Suite("extend adds borders of the given widths in the background colour")
struct GeometryExtendTests {
    @Test("each side gets its own border")
    func borders() throws {
        let image = T.numbered(width: 3, height: 2)
        let colour = RGBA(r: 10, g: 20, b: 30, a: 40)
        let out = try ExtendFilter(top: 1, right: 2, bottom: 3, left: 4, background: colour).apply(to: image)
        #expect(out.size == PixelSize(width: 9, height: 6))
        #expect(isPlaced(image, at: 4, 1, on: out, background: colour))
    }

    @Test("the default background is transparent black; no borders is the image itself")
    func defaults() throws {
        let image = T.numbered(width: 3, height: 3, alpha: false)
        let out = try ExtendFilter(bottom: 2).apply(to: image)
        #expect(out.size == PixelSize(width: 3, height: 5))
        #expect(isPlaced(image, at: 0, 0, on: out, background: RGBA(r: 0, g: 0, b: 0, a: 0)))
        #expect(out.hasAlpha)
        #expect(try ExtendFilter().apply(to: image) == image)
    }

    @Test("a wide border on a tall image, opaque background keeps the image opaque")
    func opaque() throws {
        let image = T.numbered(width: 1, height: 40, alpha: false)
        let white = RGBA(r: 255, g: 255, b: 255)
        let out = try ExtendFilter(top: 0, right: 37, bottom: 1, left: 29, background: white).apply(to: image)
        #expect(out.size == PixelSize(width: 67, height: 41))
        #expect(!out.hasAlpha)
        #expect(isPlaced(image, at: 29, 0, on: out, background: white))
    }
}

// MARK: - Output limit

@Suite("filters that enlarge refuse an output over the pixel limit before allocating it")
struct FilterOutputLimitTests {
    @Test("extend, pad, resize and rotate name themselves and the size; up to the limit is fine")
    func refusesHugeOutputs() throws {
        let image = T.numbered(width: 30, height: 20)
        let tooLarge: [(any ImageFilter, String)] = [
            (try ExtendFilter(top: 16_384, right: 16_384, bottom: 16_384, left: 16_384), "extend output '32798×32788"),
            (try PadFilter(width: 16_384, height: 16_384), "pad output '16384×16384"),
            (try ScaleFilter(width: 12_000, height: 9_000), "resize output '12000×9000"),
        ]
        for (filter, expected) in tooLarge {
            #expect {
                _ = try filter.apply(to: image)
            } throws: { error in
                "\(error)".contains("invalid \(expected)") && "\(error)".contains("at most 100 megapixels")
            }
        }
        // 10,000 × 10,000 is exactly the limit.
        #expect(try FilterOutputLimit.check(PixelSize(width: 10_000, height: 10_000), filter: "x") == ())
        #expect(throws: DarkroomError.self) {
            try FilterOutputLimit.check(PixelSize(width: 10_000, height: 10_001), filter: "x")
        }
        #expect(throws: DarkroomError.self) {
            try FilterOutputLimit.check(PixelSize(width: Int.max / 2, height: 3), filter: "x")
        }
    }
}

// MARK: - Proportions of a shrunk decode

@Suite("resizes keep the proportions of the full image a shrunk decode came from")
struct ShrunkProportionsTests {
    @Test("aspect-fit and aspect-fill size from shrunkFrom; == ignores it")
    func fitsToTheFullImage() throws {
        // 451×300 decoded at 1/4: 113×75, whose own ratio would fit 64 wide to 42 rows, not 43.
        let plain = T.numbered(width: 113, height: 75, alpha: false)
        let shrunk = plain.shrunk(from: PixelSize(width: 451, height: 300))
        #expect(shrunk == plain)
        #expect(try AspectFitFilter(width: 64, height: 64).apply(to: plain).size == PixelSize(width: 64, height: 42))
        #expect(try AspectFitFilter(width: 64, height: 64).apply(to: shrunk).size == PixelSize(width: 64, height: 43))
        #expect(try AspectFitFilter(width: 100, height: 100).apply(to: shrunk).size == PixelSize(width: 100, height: 67))
        #expect(try AspectFillFilter(width: 30, height: 30).apply(to: shrunk).size == PixelSize(width: 30, height: 30))
        // A filter's output is a new image: it does not carry the note on.
        #expect(try AspectFitFilter(width: 64, height: 64).apply(to: shrunk).shrunkFrom == nil)
        #expect(shrunk.applying(.right).shrunkFrom == PixelSize(width: 300, height: 451))
    }
}
