import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - Helpers

private func white(_ width: Int, _ height: Int) -> Image {
    constantImage(width, height, RGBA(r: 255, g: 255, b: 255), alpha: false)
}

private func alphas(_ image: Image) -> [UInt8] {
    stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
}

// MARK: - Exact coverage

@Suite("Shape masks cover each edge pixel by its exact area")
struct ShapeCoverageTests {
    /// Expected values: the area of each pixel inside the shape, integrated numerically on a
    /// 4000×4000 grid per pixel, times 255, rounded.
    @Test("rounded-corners radius 2 on 4×4: corner pixels 80, their neighbours 233")
    func roundedCorners() throws {
        let out = try RoundedCornersFilter(radius: 2).apply(to: white(4, 4))
        let expected: [UInt8] = [
            80, 233, 233, 80,
            233, 255, 255, 233,
            233, 255, 255, 233,
            80, 233, 233, 80,
        ]
        #expect(zip(alphas(out), expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(alphas(out))")
        #expect(out.hasAlpha)
    }

    @Test("circle on 5×5: the disc of radius 2.5 about the centre")
    func circle() throws {
        let out = try CircleFilter().apply(to: white(5, 5))
        let expected: [UInt8] = [
            35, 196, 251, 196, 35,
            196, 255, 255, 255, 196,
            251, 255, 255, 255, 251,
            196, 255, 255, 255, 196,
            35, 196, 251, 196, 35,
        ]
        #expect(zip(alphas(out), expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(alphas(out))")
    }

    @Test("a pixel outside the shape becomes transparent black; colour inside is untouched")
    func colours() throws {
        let image = makeImage(4, 4, [10, 20, 30, 255].repeated(16), alpha: false)
        let out = try RoundedCornersFilter(radius: 4).apply(to: image)  // clamped to 2
        #expect(out.pixel(x: 1, y: 1) == RGBA(r: 10, g: 20, b: 30, a: 255))
        #expect(out.pixel(x: 0, y: 0).r == 10 && out.pixel(x: 0, y: 0).a < 255)
        let tiny = try RoundedCornersFilter(radius: 40).apply(to: makeImage(9, 9, [10, 20, 30, 255].repeated(81)))
        #expect(tiny.pixel(x: 0, y: 0) == RGBA(r: 0, g: 0, b: 0, a: 0))
    }

    @Test("translucent pixels have their alpha scaled by the coverage, as destination-in masking does")
    func translucent() throws {
        // Corner pixels are 80/255 covered, their neighbours 233/255: 100 × 80 / 255 = 31.4, 100 × 233 / 255 = 91.4.
        let shape = try RoundedCornersFilter(radius: 2).apply(to: constantImage(4, 4, RGBA(r: 9, g: 9, b: 9), alpha: false))
        #expect(alphas(shape) == [80, 233, 233, 80, 233, 255, 255, 233, 233, 255, 255, 233, 80, 233, 233, 80])
        let out = try RoundedCornersFilter(radius: 2).apply(to: constantImage(4, 4, RGBA(r: 9, g: 9, b: 9, a: 100), alpha: true))
        #expect(alphas(out) == [31, 91, 91, 31, 91, 100, 100, 91, 91, 100, 100, 91, 31, 91, 91, 31])
        #expect(out.pixel(x: 0, y: 0).r == 9)
        // A half-transparent disc keeps a graded edge: every alpha is 128 × its opaque coverage.
        let opaque = try CircleFilter().apply(to: constantImage(40, 40, RGBA(r: 200, g: 100, b: 50), alpha: false))
        let half = try CircleFilter().apply(to: constantImage(40, 40, RGBA(r: 200, g: 100, b: 50, a: 128), alpha: true))
        for (full, scaled) in zip(alphas(opaque), alphas(half)) {
            #expect(abs(Double(scaled) - Double(full) * 128 / 255) <= 0.5, "\(full) → \(scaled)")
        }
    }
}

// MARK: - Shape properties

@Suite("Circle and rounded corners are symmetric and anti-aliased")
struct ShapePropertyTests {
    static let filters: [any ImageFilter] = [try! CircleFilter(), try! RoundedCornersFilter(radius: 12)]

    @Test("corners are transparent, the centre opaque, and the edge partly transparent",
          arguments: [(48, 48), (60, 40), (33, 47)])
    func regions(width: Int, height: Int) throws {
        for filter in Self.filters {
            let out = try filter.apply(to: Pattern.photo(width: width, height: height))
            let (w, h) = (out.width, out.height)
            for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
                #expect(out.pixel(x: x, y: y).a == 0, "\(filter.identifier) corner (\(x), \(y))")
            }
            #expect(out.pixel(x: w / 2, y: h / 2).a == 255, "\(filter.identifier)")
            let partial = alphas(out).filter { $0 > 0 && $0 < 255 }.count
            #expect(partial >= 8, "\(filter.identifier): \(partial) anti-aliased pixels")
            #expect(out.hasAlpha)
        }
    }

    @Test("the mask is symmetric left–right and top–bottom (and across the diagonal for a circle)")
    func symmetric() throws {
        for (width, height) in [(31, 31), (40, 26), (27, 40)] {
            for filter in Self.filters {
                let out = try filter.apply(to: white(width, height))
                let (w, h) = (out.width, out.height)
                for y in 0..<h {
                    for x in 0..<w {
                        let a = out.pixel(x: x, y: y).a
                        #expect(a == out.pixel(x: w - 1 - x, y: y).a && a == out.pixel(x: x, y: h - 1 - y).a)
                        if filter is CircleFilter { #expect(a == out.pixel(x: y, y: x).a) }
                    }
                }
            }
        }
    }

    @Test("circle crops the centred square first, like imageRoundedIntoCircle")
    func centredSquare() throws {
        let image = Pattern.gradient(width: 30, height: 20)  // R = 4x: the crop starts at x = 5
        let out = try CircleFilter().apply(to: image)
        #expect(out.width == 20 && out.height == 20)
        #expect(out.pixel(x: 10, y: 10) == image.pixel(x: 15, y: 10))
        let tall = try CircleFilter().apply(to: Pattern.gradient(width: 20, height: 31))
        #expect(tall.width == 20 && tall.height == 20 && tall.pixel(x: 10, y: 10).g == UInt8(5 * 15))
    }

    @Test("applying twice scales the edge again, so a chain keeps the repeat")
    func notIdempotent() throws {
        let image = Pattern.gradient(alpha: true, width: 41, height: 29)
        for filter in Self.filters {
            let once = try filter.apply(to: image)
            let twice = try filter.apply(to: once)
            #expect(twice != once, "\(filter.identifier)")
            #expect(zip(alphas(once), alphas(twice)).allSatisfy { $1 <= $0 }, "\(filter.identifier)")
            #expect(FilterChain([filter, filter]).filters.count == 2)
        }
    }

    @Test("radius 0 changes no pixel; a huge radius is clamped to half the shorter side")
    func radii() throws {
        let image = Pattern.photo(width: 40, height: 20)
        let none = try RoundedCornersFilter(radius: 0).apply(to: image)
        #expect(none == image)
        #expect(try RoundedCornersFilter(radius: 65535).apply(to: image) == RoundedCornersFilter(radius: 10).apply(to: image))
    }
}
