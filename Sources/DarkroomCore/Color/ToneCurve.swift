#if canImport(Glibc)
import Glibc  // pow, for the curves (no Foundation in the core)
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - ToneCurve

/// An ICC tone reproduction curve (`curv` or `para`): encoded value in 0…1 → linear light in 0…1.
///
/// ```swift
/// let adobe = ToneCurve.gamma(563.0 / 256.0)
/// adobe.linear(0.5)   // ≈ 0.2176
/// ```
public enum ToneCurve: Sendable, Equatable {
    /// `curv` with no entries: linear light already.
    case identity
    /// `curv` with one entry, or `para` type 0: `x^γ`.
    case gamma(Double)
    /// `curv` with two or more entries, sampled evenly over 0…1, each 0…65535.
    case sampled([UInt16])
    /// `para` types 1–4, normalised to type 4: `(a·x + b)^g + e` for `x ≥ d`, else `c·x + f`.
    case parametric(g: Double, a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)

    /// The sRGB curve (IEC 61966-2-1), as sRGB profiles write it with `para` type 3.
    public static let sRGB = ToneCurve.parametric(
        g: 2.4, a: 1 / 1.055, b: 0.055 / 1.055, c: 1 / 12.92, d: 0.04045, e: 0, f: 0)

    // MARK: - Evaluating

    /// Linear light for an encoded value, both in 0…1 (results clamped to 0…1).
    public func linear(_ x: Double) -> Double {
        let y: Double
        switch self {
        case .identity:
            y = x
        case .gamma(let g):
            y = pow(max(x, 0), g)
        case .sampled(let table):
            let position = min(max(x, 0), 1) * Double(table.count - 1)
            let lower = Int(position.rounded(.down))
            let upper = min(lower + 1, table.count - 1)
            let fraction = position - Double(lower)
            y = (Double(table[lower]) * (1 - fraction) + Double(table[upper]) * fraction) / 65535
        case .parametric(let g, let a, let b, let c, let d, let e, let f):
            if x >= d {
                let base = a * x + b
                y = (base > 0 ? pow(base, g) : 0) + e
            } else {
                y = c * x + f
            }
        }
        return y.isFinite ? min(max(y, 0), 1) : 0
    }

    // MARK: - Parsing

    /// Reads a `curv` or `para` element at `offset` of an ICC profile; `nil` when it is neither
    /// or is cut short.
    static func parse(_ r: ByteReader, at offset: Int, size: Int) -> ToneCurve? {
        guard let type = r.fourCC(offset), size >= 12 else { return nil }
        switch type {
        case "curv":
            guard let count = r.u32be(offset + 8), 12 + 2 * count <= size else { return nil }
            if count == 0 { return .identity }
            if count == 1 {
                guard let fixed = r.u16be(offset + 12), fixed > 0 else { return nil }
                return .gamma(Double(fixed) / 256)
            }
            var table = [UInt16]()
            table.reserveCapacity(count)
            for index in 0..<count {
                guard let value = r.u16be(offset + 12 + 2 * index) else { return nil }
                table.append(UInt16(value))
            }
            return .sampled(table)
        case "para":
            guard let function = r.u16be(offset + 8) else { return nil }
            let counts = [1, 3, 4, 5, 7]
            guard function < counts.count, 12 + 4 * counts[function] <= size else { return nil }
            var p = [Double]()
            for index in 0..<counts[function] {
                guard let value = s15Fixed16(r, at: offset + 12 + 4 * index) else { return nil }
                p.append(value)
            }
            switch function {
            case 0:
                return .gamma(p[0])
            case 1:  // (a·x + b)^g for x ≥ −b/a, else 0
                guard p[1] != 0 else { return nil }
                return .parametric(g: p[0], a: p[1], b: p[2], c: 0, d: -p[2] / p[1], e: 0, f: 0)
            case 2:  // (a·x + b)^g + c for x ≥ −b/a, else c
                guard p[1] != 0 else { return nil }
                return .parametric(g: p[0], a: p[1], b: p[2], c: 0, d: -p[2] / p[1], e: p[3], f: p[3])
            case 3:
                return .parametric(g: p[0], a: p[1], b: p[2], c: p[3], d: p[4], e: 0, f: 0)
            default:
                return .parametric(g: p[0], a: p[1], b: p[2], c: p[3], d: p[4], e: p[5], f: p[6])
            }
        default:
            return nil
        }
    }

    /// An ICC `s15Fixed16Number`.
    static func s15Fixed16(_ r: ByteReader, at offset: Int) -> Double? {
        guard let raw = r.u32be(offset) else { return nil }
        return Double(Int32(truncatingIfNeeded: raw)) / 65536
    }
}
