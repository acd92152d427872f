import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Foundation
import Testing

private typealias T = GeometryTestImages

/// Where the centre of output pixel (x, y) lies in the source, in pixel-index coordinates
/// (pixel i's centre at i), for a clockwise turn by `degrees` about both images' centres.
private func sourcePosition(x: Int, y: Int, output: PixelSize, source: PixelSize, degrees: Double) -> (Double, Double) {
    let t = degrees * Double.pi / 180
    let u = Double(x) + 0.5 - Double(output.width) / 2, v = Double(y) + 0.5 - Double(output.height) / 2
    return (u * cos(t) + v * sin(t) + Double(source.width) / 2 - 0.5,
            -u * sin(t) + v * cos(t) + Double(source.height) / 2 - 0.5)
}

/// Calls `body` for every output pixel whose source position is at least `margin` pixels inside.
private func forEachInterior(
    _ out: Image, source: PixelSize, degrees: Double, margin: Double, _ body: (Int, Int, Double, Double) -> Void
) {
    for y in 0..<out.height {
        for x in 0..<out.width {
            let (sx, sy) = sourcePosition(x: x, y: y, output: out.size, source: source, degrees: degrees)
            if sx >= margin, sy >= margin, sx <= Double(source.width - 1) - margin, sy <= Double(source.height - 1) - margin {
                body(x, y, sx, sy)
            }
        }
    }
}

// MARK: - Quarter turns

@Suite("rotate by multiples of 90° moves pixels exactly")
struct GeometryQuarterTurnTests {
    @Test("each multiple of 90 is the matching EXIF orientation", arguments: [
        (90.0, Orientation.right), (-270, .right), (180, .down), (-180, .down), (270, .left), (-90, .left),
        (0, .up), (360, .up), (-360, .up),
    ])
    func exact(angle: Double, orientation: Orientation) throws {
        let image = T.numbered(width: 7, height: 4)
        let out = try RotateFilter(angle: angle).apply(to: image)
        #expect(out == image.applying(orientation))
    }

    @Test("90° clockwise puts the bottom-left pixel at the top-left")
    func direction() throws {
        let image = T.numbered(width: 7, height: 4, alpha: false)
        let out = try RotateFilter(angle: 90, background: RGBA(r: 255, g: 0, b: 0)).apply(to: image)
        #expect(out.size == PixelSize(width: 4, height: 7))
        #expect(out.pixel(x: 0, y: 0) == image.pixel(x: 0, y: 3))
        #expect(!out.hasAlpha)
    }
}

// MARK: - Any angle

@Suite("rotate by other angles turns about the centre onto the bounding box")
struct GeometryFreeRotationTests {
    @Test("the canvas is the turned image's bounding box, rounded up", arguments: [
        (20, 10, 45.0, 22, 22), (100, 50, 30, 112, 94), (100, 50, -30, 112, 94), (64, 48, 135, 80, 80),
        (10, 10, 1, 11, 11), (1, 1, 45, 2, 2),
    ])
    func size(w: Int, h: Int, angle: Double, ew: Int, eh: Int) throws {
        let out = try RotateFilter(angle: angle).apply(to: constantImage(w, h, RGBA(r: 9, g: 9, b: 9), alpha: false))
        #expect(out.size == PixelSize(width: ew, height: eh))
    }

    @Test("the uncovered corners are the background; alpha only when something is translucent")
    func corners() throws {
        let image = constantImage(20, 10, RGBA(r: 0, g: 200, b: 0), alpha: false)
        let red = RGBA(r: 255, g: 0, b: 0)
        let onRed = try RotateFilter(angle: 45, background: red).apply(to: image)
        for (x, y) in [(0, 0), (21, 0), (0, 21), (21, 21)] { #expect(onRed.pixel(x: x, y: y) == red) }
        #expect(!onRed.hasAlpha)
        #expect(onRed.pixel(x: 11, y: 11) == RGBA(r: 0, g: 200, b: 0))

        let clear = try RotateFilter(angle: 45).apply(to: image)
        #expect(clear.hasAlpha)
        #expect(clear.pixel(x: 0, y: 0) == RGBA(r: 0, g: 0, b: 0, a: 0))
        let translucentImage = constantImage(20, 10, RGBA(r: 0, g: 200, b: 0, a: 100), alpha: true)
        #expect(try RotateFilter(angle: 45, background: red).apply(to: translucentImage).hasAlpha)
    }

    @Test("the background fills only what the image leaves: translucent pixels keep their colour and alpha",
          arguments: [RGBA(r: 255, g: 255, b: 255), RGBA(r: 255, g: 0, b: 0, a: 128)])
    func backgroundOnlyOutside(background: RGBA) throws {
        let blue = RGBA(r: 0, g: 0, b: 255, a: 128)
        let image = constantImage(40, 30, blue, alpha: true)
        let out = try RotateFilter(angle: 30, background: background).apply(to: image)
        var checked = 0
        forEachInterior(out, source: image.size, degrees: 30, margin: 1) { x, y, _, _ in
            #expect(out.pixel(x: x, y: y) == blue, "(\(x), \(y))")
            checked += 1
        }
        #expect(checked > 800)
        #expect(out.pixel(x: 0, y: 0) == background)
        // A transparent border stays transparent under an opaque background: no frame appears.
        let framed = try Image(width: 20, height: 20, pixels: (0..<400).flatMap { i -> [UInt8] in
            (5..<15).contains(i % 20) && (5..<15).contains(i / 20) ? [255, 0, 0, 255] : [0, 0, 0, 0]
        })
        let turned = try RotateFilter(angle: 30, background: RGBA(r: 255, g: 255, b: 255)).apply(to: framed)
        var border = 0
        forEachInterior(turned, source: framed.size, degrees: 30, margin: 1) { x, y, sx, sy in
            // Beyond the bicubic's reach (2 px) of the red square.
            guard min(sx, sy) < 2.5 || max(sx, sy) > 16.5 else { return }
            #expect(turned.pixel(x: x, y: y) == RGBA(r: 0, g: 0, b: 0, a: 0), "(\(x), \(y))")
            border += 1
        }
        #expect(border > 50)
        #expect(turned.pixel(x: turned.width / 2, y: turned.height / 2) == RGBA(r: 255, g: 0, b: 0))
    }

    @Test("a constant image stays exactly constant inside", arguments: [
        (RGBA(r: 30, g: 140, b: 250), false), (RGBA(r: 30, g: 140, b: 250, a: 77), true),
    ])
    func constant(colour: RGBA, alpha: Bool) throws {
        let image = constantImage(40, 30, colour, alpha: alpha)
        let out = try RotateFilter(angle: 30).apply(to: image)
        var checked = 0
        forEachInterior(out, source: image.size, degrees: 30, margin: 1) { x, y, _, _ in
            #expect(out.pixel(x: x, y: y) == colour, "(\(x), \(y))")
            checked += 1
        }
        #expect(checked > 800)
    }

    @Test("a linear gradient turned by any angle is the gradient at the turned positions, within 1",
          arguments: [30.0, -17.5, 123, 200.25])
    func gradient(angle: Double) throws {
        // R = 4x, G = 5y, B = 2(x + y): the bicubic reproduces linear functions exactly, so this
        // checks the direction, the centre and the half-pixel geometry at once.
        let image = Pattern.gradient()
        let out = try RotateFilter(angle: angle).apply(to: image)
        var worst = 0.0
        forEachInterior(out, source: image.size, degrees: angle, margin: 2) { x, y, sx, sy in
            let p = out.pixel(x: x, y: y)
            worst = max(worst, abs(Double(p.r) - 4 * sx), abs(Double(p.g) - 5 * sy), abs(Double(p.b) - 2 * (sx + sy)))
            #expect(p.a == 255)
        }
        #expect(worst <= 0.501, "worst difference \(worst)")  // rounding, plus Float arithmetic
    }

    @Test("translucent colour is interpolated premultiplied: the turned gradient stays within 1")
    func premultiplied() throws {
        // A = 255 − 4x; colour·alpha is quadratic, which Catmull-Rom also reproduces.
        let image = Pattern.gradient(alpha: true)
        let out = try RotateFilter(angle: 30).apply(to: image)
        var worst = 0.0
        forEachInterior(out, source: image.size, degrees: 30, margin: 2) { x, y, sx, sy in
            let p = out.pixel(x: x, y: y)
            worst = max(worst, abs(Double(p.a) - (255 - 4 * sx)), abs(Double(p.g) - 5 * sy), abs(Double(p.r) - 4 * sx))
        }
        #expect(worst <= 1, "worst difference \(worst)")
    }

    @Test("edges are anti-aliased without fringes, and the covered area is the image's")
    func edges() throws {
        let white = constantImage(40, 30, RGBA(r: 255, g: 255, b: 255), alpha: false)
        let out = try RotateFilter(angle: 30).apply(to: white)
        var partial = 0, area = 0.0
        for y in 0..<out.height {
            for x in 0..<out.width {
                let p = out.pixel(x: x, y: y)
                area += Double(p.a) / 255
                if p.a > 0 {
                    #expect(p.r == 255 && p.g == 255 && p.b == 255, "fringe at (\(x), \(y)): \(p)")
                    if p.a < 255 { partial += 1 }
                }
            }
        }
        #expect(partial > 100)  // the perimeter is 140 px long
        #expect(abs(area - 1200) < 12, "area \(area)")
    }

    @Test("the turn is clockwise: the top half ends up on the right")
    func clockwise() throws {
        let image = T.quadrants(width: 40, height: 40)  // red and green on top, blue and yellow below
        let out = try RotateFilter(angle: 45, background: RGBA(r: 0, g: 0, b: 0)).apply(to: image)
        let w = out.width, h = out.height
        #expect(out.pixel(x: w / 2, y: h / 4) == GeometryTestImages.red)      // top-left quadrant now on top
        #expect(out.pixel(x: 3 * w / 4, y: h / 2) == GeometryTestImages.green) // top-right now on the right
        #expect(out.pixel(x: w / 4, y: h / 2) == GeometryTestImages.blue)
        #expect(out.pixel(x: w / 2, y: 3 * h / 4) == GeometryTestImages.yellow)
    }
}

// MARK: - Identifiers

@Suite("rotate's identifier is the same for turns that do the same thing")
struct GeometryRotateIdentifierTests {
    @Test("angles are kept modulo 360 and right angles drop the background", arguments: [
        (0.0, 360.0), (0, -360), (90, -270), (270, -90), (180, -180), (347.5, -12.5), (330, -30),
    ])
    func sameTurn(a: Double, b: Double) throws {
        let red = RGBA(r: 255, g: 0, b: 0)
        #expect(try RotateFilter(angle: a).identifier == RotateFilter(angle: b).identifier)
        if (a / 90).rounded() == a / 90 {
            #expect(try RotateFilter(angle: a, background: red).identifier == RotateFilter(angle: b).identifier)
        } else {
            #expect(try RotateFilter(angle: a, background: red).identifier != RotateFilter(angle: b).identifier)
        }
    }

    @Test("the canonical angle is what is applied and shown")
    func canonical() throws {
        let image = T.numbered(width: 7, height: 4)
        #expect(try RotateFilter(angle: -90).identifier == "rotate(angle=270,background=#00000000)")
        #expect(try RotateFilter(angle: -90).apply(to: image) == image.applying(.left))
        #expect(try RotateFilter(angle: -0.0).identifier == "rotate(angle=0,background=#00000000)")
    }

    @Test("a turn too small to uncover a pixel keeps an opaque image without alpha", arguments: [1e-7, 359.99999999, -1e-300])
    func tinyTurn(angle: Double) throws {
        let image = constantImage(20, 10, RGBA(r: 0, g: 200, b: 0), alpha: false)
        let out = try RotateFilter(angle: angle).apply(to: image)
        #expect(out.size == image.size)
        #expect(!out.hasAlpha)
    }
}
