import DarkroomCore

// MARK: - Reference patterns

/// The formulas every image fixture was made from (see `Tests/Fixtures/make_fixtures.py`),
/// so a decode can be compared with the truth instead of with another decoder.
public enum Pattern {
    public static let width = 64
    public static let height = 48

    /// `R = 4x, G = 5y, B = 2(x+y)`, `A = 255 - 4x` when `alpha`, else 255.
    public static func gradient(alpha: Bool = false, width: Int = width, height: Int = height) -> Image {
        Image(width: width, height: height, hasAlpha: alpha) { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    p[i] = UInt8(truncatingIfNeeded: 4 * x)
                    p[i + 1] = UInt8(truncatingIfNeeded: 5 * y)
                    p[i + 2] = UInt8(truncatingIfNeeded: 2 * (x + y))
                    p[i + 3] = alpha ? UInt8(truncatingIfNeeded: 255 - 4 * x) : 255
                }
            }
        }
    }

    /// The grey+alpha fixture: `L = 4x`, `A = 255 - 5y`.
    public static func greyAlpha() -> Image {
        Image(width: width, height: height) { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    p[i] = UInt8(4 * x); p[i + 1] = UInt8(4 * x); p[i + 2] = UInt8(4 * x)
                    p[i + 3] = UInt8(255 - 5 * y)
                }
            }
        }
    }

    /// `R = 32(x/8), G = 40(y/8), B = 128`: 48 colours, exact in palette formats.
    public static func blocks() -> Image {
        Image(width: width, height: height, hasAlpha: false) { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    p[i] = UInt8(32 * (x / 8)); p[i + 1] = UInt8(40 * (y / 8)); p[i + 2] = 128; p[i + 3] = 255
                }
            }
        }
    }

    /// A photo-like test image of any size: smooth gradients plus fine detail, opaque.
    public static func photo(width: Int, height: Int) -> Image {
        Image(width: width, height: height, hasAlpha: false) { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                    let ripple = (sin(Double(x) * 0.05) * cos(Double(y) * 0.07) + 1) * 40
                    p[i] = UInt8(min(255, fx * 200 + ripple))
                    p[i + 1] = UInt8(min(255, fy * 200 + ripple / 2))
                    p[i + 2] = UInt8(min(255, (1 - fx) * 150 + ripple))
                    p[i + 3] = 255
                }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
