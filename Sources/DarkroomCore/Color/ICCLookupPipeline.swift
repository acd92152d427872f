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
        var input = SIMD4<Double>()
        for channel in 0..<min(inputChannels, device.count) { input[channel] = device[channel] }
        let xyz = evaluate(input)
        return (xyz.x, xyz.y, xyz.z)
    }

    /// ``connectionSpaceXYZ(_:)`` without allocating: the first ``inputChannels`` lanes of
    /// `device` are read.
    func evaluate(_ device: SIMD4<Double>) -> SIMD3<Double> {
        var input = SIMD4<Double>()
        for channel in 0..<inputChannels {
            input[channel] = aCurves.isEmpty ? clamp(device[channel]) : aCurves[channel].linear(device[channel])
        }
        var values = table.map { Self.interpolate($0, at: input) } ?? SIMD3(input[0], input[1], input[2])
        if !mCurves.isEmpty {
            values = SIMD3(mCurves[0].linear(values.x), mCurves[1].linear(values.y), mCurves[2].linear(values.z))
        }
        if let m = matrix {
            let rows = SIMD3(
                m[0] * values.x + m[1] * values.y + m[2] * values.z + m[9],
                m[3] * values.x + m[4] * values.y + m[5] * values.z + m[10],
                m[6] * values.x + m[7] * values.y + m[8] * values.z + m[11])
            values = SIMD3(clamp(rows.x), clamp(rows.y), clamp(rows.z))
        }
        return decode(SIMD3(bCurves[0].linear(values.x), bCurves[1].linear(values.y), bCurves[2].linear(values.z)))
    }

    private func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }

    /// The connection-space XYZ for the last stage's outputs.
    private func decode(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let l: Double, a: Double, b: Double
        switch encoding {
        case .xyz:
            return v * (65535.0 / 32768)
        case .labLegacy16:
            (l, a, b) = (v.x * 65535 / 652.8, v.y * 65535 / 256 - 128, v.z * 65535 / 256 - 128)
        case .lab8, .labV4:
            (l, a, b) = (v.x * 100, v.y * 255 - 128, v.z * 255 - 128)
        }
        let fy = (l + 16) / 116
        func inverse(_ t: Double) -> Double { t > 6.0 / 29 ? t * t * t : 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0 / 29) }
        return SIMD3(0.9642 * inverse(fy + a / 500), inverse(fy), 0.8249 * inverse(fy - b / 200))
    }

    // MARK: - Interpolation

    /// The table's three outputs at `input` (the first `gridPoints.count` lanes, each 0…1).
    static func interpolate(_ table: ColorTable, at input: SIMD4<Double>) -> SIMD3<Double> {
        let g = table.gridPoints
        return table.values.withUnsafeBufferPointer { values in
            switch g.count {
            case 1:
                let (i, f) = cell(input[0], g[0])
                return node(values, i * 3) * (1 - f) + node(values, (i + 1) * 3) * f
            case 3:
                return tetrahedral(values, base: 0, points: (g[0], g[1], g[2]), at: (input[0], input[1], input[2]))
            default:
                let (i, f) = cell(input[0], g[0])
                let slab = g[1] * g[2] * g[3] * 3
                let points = (g[1], g[2], g[3]), at = (input[1], input[2], input[3])
                let lower = tetrahedral(values, base: i * slab, points: points, at: at)
                guard f > 0 else { return lower }
                let upper = tetrahedral(values, base: (i + 1) * slab, points: points, at: at)
                return lower * (1 - f) + upper * f
            }
        }
    }

    /// The three outputs of the node starting at `index`, in 0…1.
    private static func node(_ values: UnsafeBufferPointer<UInt16>, _ index: Int) -> SIMD3<Double> {
        SIMD3(Double(values[index]), Double(values[index + 1]), Double(values[index + 2])) / 65535
    }

    /// The lower node and the fraction past it for a 0…1 input on `points` nodes; the last
    /// cell is used for 1.0, whose fraction is then 1.
    private static func cell(_ x: Double, _ points: Int) -> (Int, Double) {
        let position = min(max(x.isFinite ? x : 0, 0), 1) * Double(points - 1)
        let index = min(Int(position), points - 2)
        return (index, position - Double(index))
    }

    /// Tetrahedral interpolation in the 3-D block of `points` nodes starting at `base`: one of
    /// the six tetrahedra of the cell, picked by the order of the three fractions.
    private static func tetrahedral(
        _ values: UnsafeBufferPointer<UInt16>, base: Int, points: (Int, Int, Int), at x: (Double, Double, Double)
    ) -> SIMD3<Double> {
        let (i, rx) = cell(x.0, points.0), (j, ry) = cell(x.1, points.1), (k, rz) = cell(x.2, points.2)
        let sx = points.1 * points.2 * 3, sy = points.2 * 3, sz = 3
        let o = base + i * sx + j * sy + k * sz
        func v(_ offset: Int) -> SIMD3<Double> { node(values, o + offset) }
        let c000 = v(0), c111 = v(sx + sy + sz)
        if rx >= ry {
            if ry >= rz {
                let c100 = v(sx), c110 = v(sx + sy)
                return c000 + rx * (c100 - c000) + ry * (c110 - c100) + rz * (c111 - c110)
            } else if rx >= rz {
                let c100 = v(sx), c101 = v(sx + sz)
                return c000 + rx * (c100 - c000) + rz * (c101 - c100) + ry * (c111 - c101)
            } else {
                let c001 = v(sz), c101 = v(sx + sz)
                return c000 + rz * (c001 - c000) + rx * (c101 - c001) + ry * (c111 - c101)
            }
        } else if rx >= rz {
            let c010 = v(sy), c110 = v(sx + sy)
            return c000 + ry * (c010 - c000) + rx * (c110 - c010) + rz * (c111 - c110)
        } else if ry >= rz {
            let c010 = v(sy), c011 = v(sy + sz)
            return c000 + ry * (c010 - c000) + rz * (c011 - c010) + rx * (c111 - c011)
        } else {
            let c001 = v(sz), c011 = v(sy + sz)
            return c000 + rz * (c001 - c000) + ry * (c011 - c001) + rx * (c111 - c011)
        }
    }
}
