// MARK: - ICCLookupPipeline

/// A profile's `A2B0` transform (perceptual intent): device values (1, 3 or 4 channels) →
/// the D50 connection space, through lookup tables instead of a matrix. CMYK profiles (SWOP,
/// FOGRA, Japan Color) and some RGB and grey profiles are built this way.
///
/// Reads the three ICC element types an `A2B0` can be:
/// - `mft1` (`lut8Type`) and `mft2` (`lut16Type`): input tables → colour lookup table (CLUT) →
///   output tables;
/// - `mAB ` (`lutAtoBType`, ICC v4): A curves → CLUT → M curves → matrix → B curves, any
///   stage but the B curves left out.
///
/// The CLUT is interpolated as littleCMS does: linearly for one input, tetrahedrally for
/// three, and for four as two tetrahedral lookups blended on the first channel.
///
/// ```swift
/// if case .lookup(let pipeline) = ICCProfile(bytes: embedded)?.colorSpace {
///     let paperWhite = pipeline.connectionSpaceXYZ([0, 0, 0, 0])   // no ink
/// }
/// ```
public struct ICCLookupPipeline: Sendable, Equatable {
    /// How the last stage's 0…1 outputs encode the connection space.
    enum Encoding: Sendable, Equatable {
        /// CIELAB, ICC v2 16-bit (`mft2`): L* 100 at 0xFF00, a*/b* 0 at 0x8000.
        case labLegacy16
        /// CIELAB, 8-bit (`mft1`): L* 100 at 255, a*/b* 0 at 128.
        case lab8
        /// CIELAB, ICC v4 (`mAB `): L* 100 at 1.0, a*/b* −128…127 over 0…1.
        case labV4
        /// CIE XYZ, `u1Fixed15`: 1.0 at 0x8000.
        case xyz
    }

    /// A colour lookup table: `gridPoints[d]` nodes along input `d` (the first input varies
    /// slowest), three outputs per node, 0…65535 for 0…1 (8-bit tables scaled by 257). Kept
    /// as stored, so a table takes no more memory than the profile's own bytes.
    struct ColorTable: Sendable, Equatable {
        var gridPoints: [Int]
        var values: [UInt16]
    }

    /// How many device channels the transform reads: 1 (grey), 3 (RGB) or 4 (CMYK).
    public let inputChannels: Int
    var aCurves: [ToneCurve]
    var table: ColorTable?
    var mCurves: [ToneCurve]
    /// Row-major 3×3 then a 3-element offset (`mAB ` only).
    var matrix: [Double]?
    var bCurves: [ToneCurve]
    var encoding: Encoding

    // MARK: - Evaluating

    /// The D50 XYZ (Y = 1 for the media white) that device values in 0…1 map to.
    public func connectionSpaceXYZ(_ device: [Double]) -> (x: Double, y: Double, z: Double) {
        var values = (0..<inputChannels).map { aCurves.isEmpty ? clamp(device[$0]) : aCurves[$0].linear(device[$0]) }
        if let table { values = Self.interpolate(table, at: values) }
        if !mCurves.isEmpty { values = (0..<3).map { mCurves[$0].linear(values[$0]) } }
        if let m = matrix {
            values = (0..<3).map { row in
                clamp(m[row * 3] * values[0] + m[row * 3 + 1] * values[1] + m[row * 3 + 2] * values[2] + m[9 + row])
            }
        }
        let out = (0..<3).map { bCurves[$0].linear(values[$0]) }
        return decode(out)
    }

    private func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }

    /// The connection-space XYZ for the last stage's outputs.
    private func decode(_ v: [Double]) -> (x: Double, y: Double, z: Double) {
        let lab: (l: Double, a: Double, b: Double)
        switch encoding {
        case .xyz:
            let scale = 65535.0 / 32768
            return (v[0] * scale, v[1] * scale, v[2] * scale)
        case .labLegacy16:
            lab = (v[0] * 65535 / 652.8, v[1] * 65535 / 256 - 128, v[2] * 65535 / 256 - 128)
        case .lab8, .labV4:
            lab = (v[0] * 100, v[1] * 255 - 128, v[2] * 255 - 128)
        }
        let fy = (lab.l + 16) / 116
        func inverse(_ t: Double) -> Double { t > 6.0 / 29 ? t * t * t : 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0 / 29) }
        return (0.9642 * inverse(fy + lab.a / 500), inverse(fy), 0.8249 * inverse(fy - lab.b / 200))
    }

    // MARK: - Interpolation

    /// The table's three outputs at `input` (each 0…1).
    static func interpolate(_ table: ColorTable, at input: [Double]) -> [Double] {
        let g = table.gridPoints
        switch g.count {
        case 1:
            let (i, f) = cell(input[0], g[0])
            return (0..<3).map { (Double(table.values[i * 3 + $0]) * (1 - f) + Double(table.values[(i + 1) * 3 + $0]) * f) / 65535 }
        case 3:
            return tetrahedral(table.values, base: 0, points: (g[0], g[1], g[2]), at: (input[0], input[1], input[2]))
        default:
            let (i, f) = cell(input[0], g[0])
            let slab = g[1] * g[2] * g[3] * 3
            let points = (g[1], g[2], g[3]), at = (input[1], input[2], input[3])
            let lower = tetrahedral(table.values, base: i * slab, points: points, at: at)
            guard f > 0 else { return lower }
            let upper = tetrahedral(table.values, base: (i + 1) * slab, points: points, at: at)
            return (0..<3).map { lower[$0] * (1 - f) + upper[$0] * f }
        }
    }

    /// The lower node and the fraction past it for a 0…1 input on `points` nodes; the last
    /// cell is used for 1.0, whose fraction is then 1.
    private static func cell(_ x: Double, _ points: Int) -> (Int, Double) {
        let position = min(max(x.isFinite ? x : 0, 0), 1) * Double(points - 1)
        let index = min(Int(position), points - 2)
        return (index, position - Double(index))
    }

    /// Tetrahedral interpolation in the 3-D block of `points` nodes starting at `base`, in 0…1.
    private static func tetrahedral(
        _ values: [UInt16], base: Int, points: (Int, Int, Int), at x: (Double, Double, Double)
    ) -> [Double] {
        let (i, rx) = cell(x.0, points.0), (j, ry) = cell(x.1, points.1), (k, rz) = cell(x.2, points.2)
        let sx = points.1 * points.2 * 3, sy = points.2 * 3, sz = 3
        let o = base + i * sx + j * sy + k * sz
        return (0..<3).map { c in
            func v(_ dx: Int, _ dy: Int, _ dz: Int) -> Double {
                let index: Int = o + dx * sx + dy * sy + dz * sz + c
                return Double(values[index]) / 65535
            }
            let c000 = v(0, 0, 0), c111 = v(1, 1, 1)
            if rx >= ry {
                if ry >= rz {
                    return c000 + rx * (v(1, 0, 0) - c000) + ry * (v(1, 1, 0) - v(1, 0, 0)) + rz * (c111 - v(1, 1, 0))
                } else if rx >= rz {
                    return c000 + rx * (v(1, 0, 0) - c000) + rz * (v(1, 0, 1) - v(1, 0, 0)) + ry * (c111 - v(1, 0, 1))
                } else {
                    return c000 + rz * (v(0, 0, 1) - c000) + rx * (v(1, 0, 1) - v(0, 0, 1)) + ry * (c111 - v(1, 0, 1))
                }
            } else if rx >= rz {
                return c000 + ry * (v(0, 1, 0) - c000) + rx * (v(1, 1, 0) - v(0, 1, 0)) + rz * (c111 - v(1, 1, 0))
            } else if ry >= rz {
                return c000 + ry * (v(0, 1, 0) - c000) + rz * (v(0, 1, 1) - v(0, 1, 0)) + rx * (c111 - v(0, 1, 1))
            } else {
                return c000 + rz * (v(0, 0, 1) - c000) + ry * (v(0, 1, 1) - v(0, 0, 1)) + rx * (c111 - v(0, 1, 1))
            }
        }
    }
}
