// MARK: - CICPColor

/// Colour described by code points (ITU-T H.273) instead of an ICC profile, as AVIF and HEIF
/// `colr` boxes of type `nclx` do: the colour primaries and the transfer characteristics
/// become an equivalent matrix/TRC ``ICCProfile`` (primaries adapted to D50 with Bradford,
/// as ICC colorants are), which ``SRGBConversion`` then applies.
///
/// BT.709/sRGB primaries (1) and unspecified ones (2) need no conversion, and HDR transfers
/// (PQ, HLG) are not tone-mapped: both give `nil`.
///
/// ```swift
/// let displayP3 = CICPColor(primaries: 12, transfer: 13).profile   // Display P3
/// ```
public struct CICPColor: Sendable, Hashable {
    /// The colour-primaries code point (H.273), e.g. 1 for BT.709/sRGB, 9 for BT.2020, 12 for Display P3.
    public var primaries: Int
    /// The transfer-characteristics code point (H.273), e.g. 13 for sRGB, 16 for PQ, 18 for HLG.
    public var transfer: Int

    /// Builds the description from the `colr` box's colour-primaries and transfer-characteristics
    /// code points.
    public init(primaries: Int, transfer: Int) {
        self.primaries = primaries
        self.transfer = transfer
    }

    /// The equivalent profile, or `nil` when the colour is sRGB's (or not convertible).
    public var profile: ICCProfile? {
        guard let chromaticities = Self.chromaticities[primaries], let curve = self.curve else { return nil }
        guard let colorants = Self.d50Colorants(chromaticities) else { return nil }
        return ICCProfile(
            colorSpace: .rgb(red: colorants[0], green: colorants[1], blue: colorants[2], curves: [curve, curve, curve]),
            description: "nclx primaries \(primaries), transfer \(transfer)")
    }

    // MARK: - Code points

    private typealias XY = (x: Double, y: Double)

    /// Red, green, blue and white (x, y) per colour-primaries code; 1 and 2 are absent on purpose.
    private static let chromaticities: [Int: [XY]] = [
        4: [(0.67, 0.33), (0.21, 0.71), (0.14, 0.08), (0.310, 0.316)],              // BT.470 M
        5: [(0.64, 0.33), (0.29, 0.60), (0.15, 0.06), (0.3127, 0.3290)],            // BT.601 625
        6: [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070), (0.3127, 0.3290)],      // BT.601 525
        7: [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070), (0.3127, 0.3290)],      // SMPTE 240M
        9: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046), (0.3127, 0.3290)],      // BT.2020
        11: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.314, 0.351)],       // DCI-P3
        12: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.3127, 0.3290)],     // Display P3
    ]

    /// The decoding curve for the transfer code; `nil` for PQ (16) and HLG (18).
    private var curve: ToneCurve? {
        switch transfer {
        case 1, 6, 14, 15:  // BT.709 family: the inverse of the camera curve
            return .parametric(g: 1 / 0.45, a: 1 / 1.099, b: 0.099 / 1.099, c: 1 / 4.5, d: 0.081, e: 0, f: 0)
        case 4: return .gamma(2.2)
        case 5: return .gamma(2.8)
        case 8: return .identity
        case 16, 18: return nil
        default: return .sRGB  // 13 (sRGB), 2 (unspecified) and the rest
        }
    }

    // MARK: - Colorants

    /// The primaries' XYZ (white at Y = 1), Bradford-adapted from their white to D50.
    private static func d50Colorants(_ points: [XY]) -> [ICCProfile.XYZ]? {
        func xyz(_ p: XY) -> [Double] { [p.x / p.y, 1, (1 - p.x - p.y) / p.y] }
        let r = xyz(points[0]), g = xyz(points[1]), b = xyz(points[2]), white = xyz(points[3])
        let primaries = Matrix3([r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]])
        guard let inverse = primaries.inverted else { return nil }
        let scale = inverse.applied(to: white)
        let bradford = Matrix3([0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296])
        guard let bradfordInverse = bradford.inverted else { return nil }
        let source = bradford.applied(to: white), target = bradford.applied(to: [0.9642, 1, 0.8249])
        let gains = Matrix3([target[0] / source[0], 0, 0, 0, target[1] / source[1], 0, 0, 0, target[2] / source[2]])
        let adapt = bradfordInverse.times(gains).times(bradford)
        return (0..<3).map { column in
            let unadapted = [primaries.m[column] * scale[column], primaries.m[3 + column] * scale[column],
                             primaries.m[6 + column] * scale[column]]
            let adapted = adapt.applied(to: unadapted)
            return ICCProfile.XYZ(adapted[0], adapted[1], adapted[2])
        }
    }
}
