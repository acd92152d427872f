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
