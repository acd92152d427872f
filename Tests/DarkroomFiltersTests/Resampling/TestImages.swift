import DarkroomCore

// MARK: - Small images for resampling tests

enum TestImages {
    /// Every pixel `colour`.
    static func constant(_ colour: RGBA, width: Int, height: Int, hasAlpha: Bool) -> Image {
        Image(width: width, height: height, hasAlpha: hasAlpha) { p in
            for i in Swift.stride(from: 0, to: p.count, by: 4) {
                p[i] = colour.r; p[i + 1] = colour.g; p[i + 2] = colour.b; p[i + 3] = colour.a
            }
        }
    }

    /// Black, opaque, with the white pixels `dots`.
    static func dots(_ dots: [(x: Int, y: Int)], width: Int, height: Int) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in Swift.stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        for dot in dots {
            let i = (dot.y * width + dot.x) * 4
            pixels[i] = 255; pixels[i + 1] = 255; pixels[i + 2] = 255
        }
        return try! Image(width: width, height: height, pixels: pixels, hasAlpha: false)
    }

    /// Builds an opaque image from a per-pixel function of the red channel; green and
    /// blue copy it.
    static func grey(width: Int, height: Int, _ value: (Int, Int) -> UInt8) -> Image {
        Image(width: width, height: height, hasAlpha: false) { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4, v = value(x, y)
                    p[i] = v; p[i + 1] = v; p[i + 2] = v; p[i + 3] = 255
                }
            }
        }
    }

    /// Nearest-neighbour point sampling with the same pixel-centre geometry as the
    /// resampler: what a resize that does not filter would produce.
    static func pointSampled(_ image: Image, to size: PixelSize) -> Image {
        let sx = Double(image.width) / Double(size.width), sy = Double(image.height) / Double(size.height)
        return Image(width: size.width, height: size.height, hasAlpha: image.hasAlpha) { p in
            for y in 0..<size.height {
                let from = min(image.height - 1, Int((Double(y) + 0.5) * sy))
                for x in 0..<size.width {
                    let fromX = min(image.width - 1, Int((Double(x) + 0.5) * sx))
                    let s = (from * image.width + fromX) * 4, d = (y * size.width + x) * 4
                    for c in 0..<4 { p[d + c] = image.pixels[s + c] }
                }
            }
        }
    }

    /// The brightness-weighted mean position of the red channel, in pixels.
    static func centroid(_ image: Image) -> (x: Double, y: Double) {
        var total = 0.0, sx = 0.0, sy = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let v = Double(image.pixel(x: x, y: y).r)
                total += v; sx += v * Double(x); sy += v * Double(y)
            }
        }
        return (sx / total, sy / total)
    }
}
