import DarkroomCore

// MARK: - pixelate

/// `pixelate(size)` — replaces each `size`×`size` block, anchored at the top-left corner, by
/// its average colour. Blocks cut off by the right or bottom edge average only the pixels they
/// contain. With alpha, colour is averaged weighted by alpha (premultiplied), so transparent
/// pixels lend no colour, and a block whose average alpha rounds to 0 becomes transparent
/// black. Idempotent: pixelating again with the same size changes nothing.
///
/// ```swift
/// let blocky = try PixelateFilter(size: 12).apply(to: image) // identifier "pixelate(size=12)"
/// ```
public struct PixelateFilter: DeclaredFilter {
    public static let name = "pixelate"
    public static let summary =
        "Replaces size×size blocks (from the top-left) by their average colour, alpha-weighted; edge blocks average what they hold."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "size", kind: .integer(1...1024), default: .integer(8), unit: "px",
            summary: "side of the square blocks"),
    ]
    public static let isIdempotent = true
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` outside 1…1024.
    public init(size: Int = 8) throws { self = try Self.make([("size", .integer(size))]) }

    public func apply(to image: Image) throws -> Image {
        let size = arguments.int("size")
        let width = image.width, height = image.height, weighted = image.hasAlpha
        let blocksAcross = (width + size - 1) / size
        // Per block of the current band: Σr, Σg, Σb (× alpha when weighted), Σa.
        var sums = [Int](repeating: 0, count: blocksAcross * 4)
        return image.pixels.withUnsafeBufferPointer { source in
            sums.withUnsafeMutableBufferPointer { sum in
                Image(width: width, height: height, hasAlpha: image.hasAlpha) { out in
                    var top = 0
                    while top < height {
                        let bottom = min(height, top + size)
                        for i in 0..<sum.count { sum[i] = 0 }
                        for y in top..<bottom {
                            var x = y * width * 4
                            for block in 0..<blocksAcross {
                                let end = (y * width + min(width, (block + 1) * size)) * 4
                                var r = 0, g = 0, b = 0, a = 0
                                while x < end {
                                    let alpha = Int(source[x + 3])
                                    let w = weighted ? alpha : 1
                                    r += Int(source[x]) * w; g += Int(source[x + 1]) * w; b += Int(source[x + 2]) * w
                                    a += alpha
                                    x += 4
                                }
                                sum[block * 4] += r; sum[block * 4 + 1] += g; sum[block * 4 + 2] += b; sum[block * 4 + 3] += a
                            }
                        }
                        // Averages, rounded to nearest, into the first row of the band…
                        let rows = bottom - top
                        for block in 0..<blocksAcross {
                            let count = rows * (min(width, (block + 1) * size) - block * size)
                            let totalAlpha = sum[block * 4 + 3]
                            let divisor = weighted ? totalAlpha : count
                            let alpha = (totalAlpha + count / 2) / count
                            var pixel: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
                            if divisor > 0, !(weighted && alpha == 0) {
                                pixel = (
                                    UInt8((sum[block * 4] + divisor / 2) / divisor),
                                    UInt8((sum[block * 4 + 1] + divisor / 2) / divisor),
                                    UInt8((sum[block * 4 + 2] + divisor / 2) / divisor),
                                    UInt8(alpha))
                            }
                            var x = block * size
                            let end = min(width, x + size)
                            while x < end {
                                let o = (top * width + x) * 4
                                out[o] = pixel.0; out[o + 1] = pixel.1; out[o + 2] = pixel.2; out[o + 3] = pixel.3
                                x += 1
                            }
                        }
                        // …then copied down the band.
                        let rowBytes = width * 4
                        for y in (top + 1)..<max(top + 1, bottom) {
                            (out.baseAddress! + y * rowBytes).initialize(from: out.baseAddress! + top * rowBytes, count: rowBytes)
                        }
                        top = bottom
                    }
                }
            }
        }
    }
}
