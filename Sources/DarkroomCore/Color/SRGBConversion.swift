#if canImport(Glibc)
import Glibc  // pow, for the sRGB table (no Foundation in the core)
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - SRGBConversion

/// Converts RGBA8 pixels from an embedded ICC profile's colour space to sRGB, as sharp and
/// imgproxy do by default: each channel through its tone curve to linear light, a 3×3 matrix
/// to linear sRGB (relative colorimetric, out-of-gamut colours clipped), then the sRGB curve.
/// Alpha is kept as it is.
///
/// Fixed point throughout: 256-entry curves to linear light in Q15, the matrix in Q12, and a
/// 16,385-entry table back to 8-bit sRGB. When the matrix is the identity (grey profiles, sRGB
/// primaries with another curve) the three steps fold into one 256-entry table per channel.
///
/// ```swift
/// if let profile = ICCProfile(bytes: embedded), let conversion = SRGBConversion(from: profile) {
///     image = conversion.apply(to: image)
/// }
/// ```
public struct SRGBConversion: Sendable {
    private enum Kernel: Sendable {
        /// Per channel, encoded value → encoded sRGB value (3 × 256).
        case tables([UInt8])
        /// Per channel and encoded value, that channel's share of the linear sRGB result: the
        /// channel's linear light (Q15) times the matrix column (Q12), as one SIMD value (3 × 256).
        case matrix([SIMD4<Int32>])
        /// A lookup-table profile sampled on a grid (RGB or CMYK; see ``LookupGrid``).
        case grid(LookupGrid)
    }

    private let kernel: Kernel

    /// The conversion for `profile`, or `nil` when it would leave every pixel within one level
    /// of where it is (the profile is sRGB, or near enough).
    ///
    /// A CMYK profile's conversion reads each pixel's four bytes as ink amounts (C, M, Y, K;
    /// 255 = full ink), as ``ImageDecoder``s hand them over, and writes opaque RGBA.
    public init?(from profile: ICCProfile) {
        let curves: [ToneCurve]
        var matrix = Self.identity
        switch profile.colorSpace {
        case .lookup(let pipeline) where pipeline.inputChannels == 1:
            // A grey image has R = G = B: one table per output channel is the whole transform.
            let tables = LookupGrid.greyTables(pipeline)
            guard Self.changesSomeLevel(tables) else { return nil }
            kernel = .tables(tables)
            return
        case .lookup(let pipeline):
            kernel = .grid(LookupGrid.make(pipeline))
            return
        case .gray(let curve):
            curves = [curve, curve, curve]
        case .rgb(let red, let green, let blue, let channelCurves):
            curves = channelCurves
            let source = [red.x, green.x, blue.x, red.y, green.y, blue.y, red.z, green.z, blue.z]
            // Colorants that do not span the colour space (all zero, or two alike) map every
            // colour to a line or a point: not a usable profile, as skcms judges it.
            guard let inverse = Matrix3(source).inverted, inverse.m.allSatisfy({ abs($0) < 1e4 }) else { return nil }
            let toSRGB = Self.fromD50ToLinearSRGB.times(Matrix3(source)).m
            // Wider than any real working space (ProPhoto reaches ~2): not a usable profile.
            guard toSRGB.allSatisfy({ $0.isFinite && abs($0) < 4 }) else { return nil }
            matrix = toSRGB
        }
        let toLinear = curves.flatMap { curve in
            (0..<256).map { Int32((curve.linear(Double($0) / 255) * 32768).rounded()) }
        }
        let isDiagonal = zip(matrix, Self.identity).allSatisfy { abs($0 - $1) < 0.001 }
        if isDiagonal {
            let tables = toLinear.map { Self.encode[Int($0) >> 1] }
            guard Self.changesSomeLevel(tables) else { return nil }
            kernel = .tables(tables)
        } else {
            let q12 = matrix.map { Int32(($0 * 4096).rounded()) }
            kernel = .matrix((0..<768).map { entry in
                let channel = entry / 256, linear = toLinear[entry]
                return SIMD4(q12[channel], q12[3 + channel], q12[6 + channel], 0) &* linear
            })
        }
    }

    // MARK: - Applying

    /// `image`'s pixels in sRGB (same size, alpha and ``Image/shrunkFrom``). The buffer is
    /// rewritten in place when the caller hands over its only reference (a decoder's fresh
    /// image), so no second buffer is allocated or faulted in.
    public func apply(to image: consuming Image) -> Image {
        var converted = image
        converted.pixels.withUnsafeMutableBufferPointer { pixels in
            switch kernel {
            case .tables(let tables):
                tables.withUnsafeBufferPointer { Self.map(pixels, tables: $0) }
            case .matrix(let shares):
                shares.withUnsafeBufferPointer { Self.transform(pixels, shares: $0) }
            case .grid(let grid):
                grid.apply(to: pixels)
            }
        }
        return converted
    }

    private static func map(_ pixels: UnsafeMutableBufferPointer<UInt8>, tables: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < pixels.count {
            pixels[i] = tables[Int(pixels[i])]
            pixels[i + 1] = tables[256 + Int(pixels[i + 1])]
            pixels[i + 2] = tables[512 + Int(pixels[i + 2])]
            i += 4
        }
    }

    /// Sums each channel's precomputed share (no multiplications per pixel), then looks the
    /// three linear results up in the sRGB table. Coefficients below 4 in magnitude keep every
    /// Q27 sum inside Int32.
    private static func transform(
        _ pixels: UnsafeMutableBufferPointer<UInt8>, shares: UnsafeBufferPointer<SIMD4<Int32>>
    ) {
        let rounding = SIMD4<Int32>(repeating: 1 << 12)  // half a step of the Q14 table index
        let zero = SIMD4<Int32>(repeating: 0), top = SIMD4<Int32>(repeating: 16384)
        encode.withUnsafeBufferPointer { encode in
            var i = 0
            while i < pixels.count {
                let sum = shares[Int(pixels[i])] &+ shares[256 + Int(pixels[i + 1])]
                    &+ shares[512 + Int(pixels[i + 2])]
                let index = ((sum &+ rounding) &>> 13).clamped(lowerBound: zero, upperBound: top)
                pixels[i] = encode[Int(index[0])]
                pixels[i + 1] = encode[Int(index[1])]
                pixels[i + 2] = encode[Int(index[2])]
                i += 4
            }
        }
    }

    // MARK: - Tables

    /// Whether per-channel tables (3 × 256) move any level by more than one.
    private static func changesSomeLevel(_ tables: [UInt8]) -> Bool {
        tables.enumerated().contains { abs(Int($1) - $0 % 256) > 1 }
    }

    /// The sRGB curve (IEC 61966-2-1): linear light → encoded value, both in 0…1.
    static func encoded(linear: Double) -> Double {
        linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// Linear light in 0…16384 (Q14) → 8-bit sRGB.
    private static let encode: [UInt8] = (0...16384).map { step in
        UInt8(min(max((encoded(linear: Double(step) / 16384) * 255).rounded(), 0), 255))
    }

    private static let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]

    /// D50 XYZ → linear sRGB: the inverse of the colorants the sRGB IEC 61966-2.1 profile writes
    /// (Bradford-adapted to D50).
    static let fromD50ToLinearSRGB = Matrix3([
        0.436066, 0.385147, 0.143066,
        0.222488, 0.716873, 0.060608,
        0.013916, 0.097076, 0.714096,
    ]).inverted!
}
