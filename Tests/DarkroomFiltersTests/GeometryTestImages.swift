import DarkroomCore

// MARK: - Images for the geometry tests

enum GeometryTestImages {
    static let red = RGBA(r: 255, g: 0, b: 0)
    static let green = RGBA(r: 0, g: 255, b: 0)
    static let blue = RGBA(r: 0, g: 0, b: 255)
    static let yellow = RGBA(r: 255, g: 255, b: 0)

    /// Opaque, its quadrants solid: red top-left, green top-right, blue bottom-left, yellow bottom-right.
    static func quadrants(width: Int, height: Int) -> Image {
        Image(width: width, height: height, hasAlpha: false) { p in
            for y in 0..<height {
                for x in 0..<width {
                    let c = y < height / 2 ? (x < width / 2 ? red : green) : (x < width / 2 ? blue : yellow)
                    let i = (y * width + x) * 4
                    p[i] = c.r; p[i + 1] = c.g; p[i + 2] = c.b; p[i + 3] = 255
                }
            }
        }
    }

    /// Every pixel different: `R = x`, `G = y`, `B = 7x + 13y`, `A = 255 − x − y` (with `alpha`)
    /// or 255. Sides up to 100.
    static func numbered(width: Int, height: Int, alpha: Bool = true) -> Image {
        Image(width: width, height: height, hasAlpha: alpha) { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    p[i] = UInt8(x); p[i + 1] = UInt8(y); p[i + 2] = UInt8(truncatingIfNeeded: 7 * x + 13 * y)
                    p[i + 3] = alpha ? UInt8(255 - x - y) : 255
                }
            }
        }
    }

    /// The pixels of `image` in the rectangle, written out pixel by pixel (the slow, obvious way).
    static func region(_ image: Image, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for row in y..<(y + height) {
            for column in x..<(x + width) {
                let p = image.pixel(x: column, y: row)
                bytes += [p.r, p.g, p.b, p.a]
            }
        }
        return bytes
    }
}
