import DarkroomCore
import DarkroomTestSupport
import Foundation

// MARK: - Small images

/// An image from literal RGBA bytes (traps on a size mistake in the test itself).
func makeImage(_ width: Int, _ height: Int, _ bytes: [UInt8], alpha: Bool = true) -> Image {
    try! Image(width: width, height: height, pixels: bytes, hasAlpha: alpha)
}

/// An opaque grey image from one value per pixel.
func greyImage(_ width: Int, _ height: Int, _ values: [UInt8]) -> Image {
    makeImage(width, height, values.flatMap { [$0, $0, $0, 255] }, alpha: false)
}

/// An image where every pixel is `pixel`.
func constantImage(_ width: Int, _ height: Int, _ pixel: RGBA, alpha: Bool) -> Image {
    makeImage(width, height, [pixel.r, pixel.g, pixel.b, pixel.a].repeated(width * height), alpha: alpha)
}

extension Array {
    func repeated(_ times: Int) -> [Element] { Array((0..<times).map { _ in self }.joined()) }
}

/// The largest difference between the image's bytes and `expected`.
func maxDifference(_ image: Image, _ expected: [UInt8]) -> Int {
    guard image.pixels.count == expected.count else { return .max }
    return zip(image.pixels, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
}

/// A photo-like opaque image with hard edges and fine detail: a smooth gradient with ripples,
/// a checkerboard of 3-pixel squares in the left third, and a white rectangle with a black frame.
func detailedImage(width: Int, height: Int) -> Image {
    let photo = Pattern.photo(width: width, height: height)
    return Image(width: width, height: height, hasAlpha: false) { p in
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                var pixel = photo.pixel(x: x, y: y)
                if x < width / 3, y > height / 2 {
                    let v: UInt8 = (x / 3 + y / 3) % 2 == 0 ? 20 : 235
                    pixel = RGBA(r: v, g: v / 2, b: 255 - v)
                }
                if x >= width / 2, x < width * 3 / 4, y >= height / 5, y < height / 2 {
                    let frame = x == width / 2 || y == height / 5 || x == width * 3 / 4 - 1 || y == height / 2 - 1
                    pixel = frame ? RGBA(r: 0, g: 0, b: 0) : RGBA(r: 255, g: 255, b: 255)
                }
                p[i] = pixel.r; p[i + 1] = pixel.g; p[i + 2] = pixel.b; p[i + 3] = 255
            }
        }
    }
}

// MARK: - A reference Gaussian

/// A slow, obviously-correct Gaussian blur in `Double`: direct 2-D separable sums with the
/// given radius, colour premultiplied by alpha, edges clamped. The yardstick for the fast ones.
func referenceGaussian(_ image: Image, sigma: Double, radius: Int) -> Image {
    let w = image.width, h = image.height
    var weights = (0...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = weights[0] + 2 * weights.dropFirst().reduce(0, +)
    weights = weights.map { $0 / total }
    var plane = [Double](repeating: 0, count: w * h * 4)
    for i in 0..<(w * h) {
        let a = image.hasAlpha ? Double(image.pixels[i * 4 + 3]) : 255
        for c in 0..<3 { plane[i * 4 + c] = Double(image.pixels[i * 4 + c]) * a / 255 }
        plane[i * 4 + 3] = a
    }
    func pass(_ input: [Double], horizontal: Bool) -> [Double] {
        var out = [Double](repeating: 0, count: input.count)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var acc = 0.0
                    for k in -radius...radius {
                        let sx = horizontal ? min(w - 1, max(0, x + k)) : x
                        let sy = horizontal ? y : min(h - 1, max(0, y + k))
                        acc += weights[abs(k)] * input[(sy * w + sx) * 4 + c]
                    }
                    out[(y * w + x) * 4 + c] = acc
                }
            }
        }
        return out
    }
    let blurred = pass(pass(plane, horizontal: true), horizontal: false)
    return Image(width: w, height: h, hasAlpha: image.hasAlpha) { p in
        for i in 0..<(w * h) {
            let a = blurred[i * 4 + 3]
            let alpha = min(255, max(0, a.rounded()))
            for c in 0..<3 {
                p[i * 4 + c] = alpha == 0 ? 0 : UInt8(min(255, max(0, (blurred[i * 4 + c] * 255 / a).rounded())))
            }
            p[i * 4 + 3] = image.hasAlpha ? UInt8(alpha) : 255
        }
    }
}

// MARK: - Premultiplied mass

/// Σ alpha and Σ colour·alpha/255 per channel: what a blur must neither create nor destroy.
func premultipliedMass(_ image: Image) -> [Double] {
    var mass = [0.0, 0.0, 0.0, 0.0]
    for i in stride(from: 0, to: image.pixels.count, by: 4) {
        let a = Double(image.pixels[i + 3])
        for c in 0..<3 { mass[c] += Double(image.pixels[i + c]) * a / 255 }
        mass[3] += a
    }
    return mass
}
