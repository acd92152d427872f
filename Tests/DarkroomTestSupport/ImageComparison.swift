import DarkroomCore

// MARK: - Comparing images

/// Measures how far one image is from another.
public enum ImageComparison {
    /// Mean absolute error per channel (0…255) over the colour channels and, when
    /// `includeAlpha`, alpha. Sizes must match; a mismatch returns `.infinity`.
    public static func meanAbsoluteError(_ a: Image, _ b: Image, includeAlpha: Bool = true) -> Double {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        var total = 0
        var count = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for i in stride(from: 0, to: pa.count, by: 4) {
                    for c in 0..<(includeAlpha ? 4 : 3) {
                        total += abs(Int(pa[i + c]) - Int(pb[i + c]))
                    }
                    count += includeAlpha ? 4 : 3
                }
            }
        }
        return Double(total) / Double(count)
    }

    /// The largest absolute difference of any channel.
    public static func maxAbsoluteError(_ a: Image, _ b: Image, includeAlpha: Bool = true) -> Int {
        guard a.width == b.width, a.height == b.height else { return .max }
        var worst = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<(includeAlpha ? 4 : 3) {
                worst = max(worst, abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c])))
            }
        }
        return worst
    }

    /// The largest absolute difference of any channel in row `row` of two images of one size.
    public static func rowDifference(_ a: Image, _ b: Image, row: Int) -> Int {
        guard a.width == b.width, a.height == b.height, (0..<a.height).contains(row) else { return .max }
        var worst = 0
        for x in 0..<a.width {
            let p = a.pixel(x: x, y: row), q = b.pixel(x: x, y: row)
            worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
        }
        return worst
    }

    /// Peak signal-to-noise ratio in dB over RGB; `.infinity` for identical images.
    public static func psnr(_ a: Image, _ b: Image) -> Double {
        guard a.width == b.width, a.height == b.height else { return 0 }
        var sum = 0.0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
                sum += d * d
            }
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

#if canImport(Glibc)
import Glibc
#endif
