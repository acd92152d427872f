import DarkroomCore

// MARK: - AxisBoxReduction

/// Averages blocks of `factor` rows (or columns) into one, before a resize that would
/// otherwise shrink one axis by a huge factor.
///
/// A kernel stretched over a 10⁶× shrink needs millions of taps per output: a 1×100,000,000
/// image (within the 100-megapixel limit) fitted into 100×100 made a 1.2 GB weight table.
/// Like libvips' shrink-then-reduce, the axis is first box-averaged by an integer factor that
/// leaves the kernel at least ``minimumKernelShrink`` to do, so the weights stay small. Only
/// axes longer than ``threshold`` are touched: real photographs never are, and their results
/// stay exactly those of the direct resize. Colour is averaged weighted by alpha, as the
/// resampler's premultiplied passes do; a last partial block averages what it has.
///
/// ```swift
/// let shorter = AxisBoxReduction.reduced(tallStrip, rowsBy: 1000)  // 1×100,000,000 → 1×100,000
/// ```
enum AxisBoxReduction {
    /// Axes at most this long are never pre-reduced.
    static let threshold = 1 << 20
    /// The share of the shrink left to the kernel.
    static let minimumKernelShrink = 8

    /// The factor to pre-reduce an axis of `source` samples that is resized to `destination`;
    /// 1 for none.
    static func factor(source: Int, destination: Int) -> Int {
        guard source > threshold else { return 1 }
        return max(1, source / max(1, destination) / minimumKernelShrink)
    }

    /// `image` with every `factor` rows averaged into one.
    static func reduced(_ image: Image, rowsBy factor: Int) -> Image {
        reduce(image, factor: factor, alongRows: true)
    }

    /// `image` with every `factor` columns averaged into one.
    static func reduced(_ image: Image, columnsBy factor: Int) -> Image {
        reduce(image, factor: factor, alongRows: false)
    }

    private static func reduce(_ image: Image, factor: Int, alongRows: Bool) -> Image {
        guard factor > 1 else { return image }
        let width = image.width, height = image.height
        let outWidth = alongRows ? width : (width + factor - 1) / factor
        let outHeight = alongRows ? (height + factor - 1) / factor : height
        return image.pixels.withUnsafeBufferPointer { source in
            Image(width: outWidth, height: outHeight, hasAlpha: image.hasAlpha) { out in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // The block of source pixels averaged into (x, y).
                        let xs = alongRows ? x..<x + 1 : x * factor..<min(width, (x + 1) * factor)
                        let ys = alongRows ? y * factor..<min(height, (y + 1) * factor) : y..<y + 1
                        var r = 0, g = 0, b = 0, a = 0, n = 0
                        for sy in ys {
                            for sx in xs {
                                let i = (sy * width + sx) * 4
                                let alpha = Int(source[i + 3])
                                r += Int(source[i]) * alpha
                                g += Int(source[i + 1]) * alpha
                                b += Int(source[i + 2]) * alpha
                                a += alpha
                                n += 1
                            }
                        }
                        let o = (y * outWidth + x) * 4
                        if a > 0 {
                            out[o] = UInt8((r + a / 2) / a)
                            out[o + 1] = UInt8((g + a / 2) / a)
                            out[o + 2] = UInt8((b + a / 2) / a)
                        } else {
                            out[o] = 0; out[o + 1] = 0; out[o + 2] = 0
                        }
                        out[o + 3] = UInt8((a + n / 2) / n)
                    }
                }
            }
        }
    }
}
