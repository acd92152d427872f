#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - ResamplingKernel

/// The reconstruction filter a resize uses: how much each source pixel contributes
/// to an output pixel, as a function of their distance.
///
/// Distances are in *filter units*: source pixels when enlarging, output pixels when
/// shrinking (the ``Resampler`` stretches the kernel by the scale factor so that it
/// filters instead of point-sampling).
///
/// ```swift
/// let kernel = ResamplingKernel.lanczos3
/// kernel.support          // 3.0
/// kernel.weight(at: 0)    // 1.0
/// kernel.weight(at: 1)    // 0.0 (an interpolating kernel)
/// ```
public enum ResamplingKernel: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Windowed sinc with three lobes: the sharpest, with slight ringing. The default.
    case lanczos3
    /// Windowed sinc with two lobes: a little softer, less ringing, faster.
    case lanczos2
    /// Mitchell–Netravali cubic (B = C = 1/3): soft, almost no ringing.
    case mitchell
    /// Catmull–Rom cubic (B = 0, C = 1/2): sharp, interpolating.
    case catmullRom
    /// The triangle (tent) filter: bilinear interpolation when enlarging.
    case bilinear
    /// The box filter: nearest neighbour when enlarging, area averaging when shrinking.
    case box

    /// The kernel used when none is named.
    public static let `default` = ResamplingKernel.lanczos3

    /// The radius (in filter units) outside which ``weight(at:)`` is zero.
    public var support: Double {
        switch self {
        case .lanczos3: return 3
        case .lanczos2, .mitchell, .catmullRom: return 2
        case .bilinear: return 1
        case .box: return 0.5
        }
    }

    /// The kernel's value at distance `x` (filter units). Not normalised: the
    /// ``Resampler`` divides the weights of each output pixel by their sum.
    ///
    /// The box is half-open, `[-0.5, 0.5)`, so that a source pixel on the boundary
    /// between two output pixels is counted by exactly one of them.
    public func weight(at x: Double) -> Double {
        switch self {
        case .lanczos3: return Self.lanczos(x, lobes: 3)
        case .lanczos2: return Self.lanczos(x, lobes: 2)
        case .mitchell: return Self.cubic(x, b: 1.0 / 3.0, c: 1.0 / 3.0)
        case .catmullRom: return Self.cubic(x, b: 0, c: 0.5)
        case .bilinear:
            let ax = abs(x)
            return ax < 1 ? 1 - ax : 0
        case .box:
            return x >= -0.5 && x < 0.5 ? 1 : 0
        }
    }

    public var description: String { rawValue }

    // MARK: - Kernel formulas

    /// `sin(πx) / (πx)`, with `sinc(0) = 1`.
    static func sinc(_ x: Double) -> Double {
        if x == 0 { return 1 }
        let px = Double.pi * x
        return sin(px) / px
    }

    /// `sinc(x) · sinc(x / lobes)` inside `|x| < lobes`, else 0.
    static func lanczos(_ x: Double, lobes: Double) -> Double {
        abs(x) < lobes ? sinc(x) * sinc(x / lobes) : 0
    }

    /// The Mitchell–Netravali family of cubics with parameters `b` and `c`.
    static func cubic(_ x: Double, b: Double, c: Double) -> Double {
        let ax = abs(x), ax2 = ax * ax, ax3 = ax2 * ax
        if ax < 1 {
            return ((12 - 9 * b - 6 * c) * ax3 + (-18 + 12 * b + 6 * c) * ax2 + (6 - 2 * b)) / 6
        }
        if ax < 2 {
            return ((-b - 6 * c) * ax3 + (6 * b + 30 * c) * ax2 + (-12 * b - 48 * c) * ax + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}

// MARK: - Weights along a line of taps

extension ResamplingKernel {
    /// Fills `values[0 ..< count]` with `weight(at: start + k · step)`.
    ///
    /// Lanczos kernels avoid two sines per tap: `θ = πx / lobes` advances by a fixed
    /// angle, so `(sin θ, cos θ)` is rotated from tap to tap, and `sin πx` follows from
    /// it (`3s − 4s³` for three lobes, `2sc` for two). Then
    /// `lanczos(x) = lobes · sin πx · sin θ / (πx)²`.
    func fillWeights(from start: Double, step: Double, count: Int, into values: inout [Double]) {
        switch self {
        case .lanczos3, .lanczos2:
            let lobes = support
            var s = sin(Double.pi * start / lobes), c = cos(Double.pi * start / lobes)
            let rotateSin = sin(Double.pi * step / lobes), rotateCos = cos(Double.pi * step / lobes)
            for k in 0..<count {
                let x = start + Double(k) * step
                if abs(x) >= lobes {
                    values[k] = 0
                } else if abs(x) < 1e-9 {
                    values[k] = 1
                } else {
                    let sinPiX = self == .lanczos3 ? s * (3 - 4 * s * s) : 2 * s * c
                    values[k] = lobes * sinPiX * s / (Double.pi * Double.pi * x * x)
                }
                (s, c) = (s * rotateCos + c * rotateSin, c * rotateCos - s * rotateSin)
            }
        default:
            for k in 0..<count { values[k] = weight(at: start + Double(k) * step) }
        }
    }
}
