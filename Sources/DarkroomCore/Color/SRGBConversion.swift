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
/// Fixed point throughout: 256-entry curves to linear light in Q15, the matrix in Q14, and a
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
        /// Per channel encoded value → linear Q15 (3 × 256), and a row-major Q14 matrix.
        case matrix(toLinear: [Int32], coefficients: [Int])
    }

    private let kernel: Kernel

    /// The conversion for `profile`, or `nil` when it would leave every pixel within one level
    /// of where it is (the profile is sRGB, or near enough).
    public init?(from profile: ICCProfile) {
        let curves: [ToneCurve]
        var matrix = Self.identity
        switch profile.colorSpace {
        case .gray(let curve):
            curves = [curve, curve, curve]
        case .rgb(let red, let green, let blue, let channelCurves):
            curves = channelCurves
            let source = [red.x, green.x, blue.x, red.y, green.y, blue.y, red.z, green.z, blue.z]
            let toSRGB = Self.fromD50ToLinearSRGB.times(Matrix3(source)).m
            guard toSRGB.allSatisfy({ $0.isFinite && abs($0) < 64 }) else { return nil }
            matrix = toSRGB
        }
        let toLinear = curves.flatMap { curve in
            (0..<256).map { Int32((curve.linear(Double($0) / 255) * 32768).rounded()) }
        }
        let isDiagonal = zip(matrix, Self.identity).allSatisfy { abs($0 - $1) < 0.001 }
        if isDiagonal {
            let tables = toLinear.map { Self.encode[Int($0) >> 1] }
            guard tables.enumerated().contains(where: { abs(Int($1) - $0 % 256) > 1 }) else { return nil }
            kernel = .tables(tables)
        } else {
            kernel = .matrix(toLinear: toLinear, coefficients: matrix.map { Int(($0 * 16384).rounded()) })
        }
    }

    // MARK: - Applying

    /// `image`'s pixels in sRGB (same size, alpha and ``Image/shrunkFrom``).
    public func apply(to image: Image) -> Image {
        var converted = Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { out in
            image.pixels.withUnsafeBufferPointer { source in
                switch kernel {
                case .tables(let tables):
                    tables.withUnsafeBufferPointer { Self.map(source, into: out, tables: $0) }
                case .matrix(let toLinear, let coefficients):
                    toLinear.withUnsafeBufferPointer { Self.transform(source, into: out, toLinear: $0, m: coefficients) }
                }
            }
        }
        converted.shrunkFrom = image.shrunkFrom
        return converted
    }

    private static func map(
        _ source: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
        tables: UnsafeBufferPointer<UInt8>
    ) {
        var i = 0
        while i < source.count {
            out[i] = tables[Int(source[i])]
            out[i + 1] = tables[256 + Int(source[i + 1])]
            out[i + 2] = tables[512 + Int(source[i + 2])]
            out[i + 3] = source[i + 3]
            i += 4
        }
    }

    private static func transform(
        _ source: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
        toLinear: UnsafeBufferPointer<Int32>, m: [Int]
    ) {
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        encode.withUnsafeBufferPointer { encode in
            @inline(__always) func back(_ q29: Int) -> UInt8 {
                encode[min(max((q29 + 8192) >> 14, 0), 32768) >> 1]
            }
            var i = 0
            while i < source.count {
                let r = Int(toLinear[Int(source[i])])
                let g = Int(toLinear[256 + Int(source[i + 1])])
                let b = Int(toLinear[512 + Int(source[i + 2])])
                out[i] = back(m0 * r + m1 * g + m2 * b)
                out[i + 1] = back(m3 * r + m4 * g + m5 * b)
                out[i + 2] = back(m6 * r + m7 * g + m8 * b)
                out[i + 3] = source[i + 3]
                i += 4
            }
        }
    }

    // MARK: - Tables

    /// Linear light in 0…16384 (Q14) → 8-bit sRGB.
    private static let encode: [UInt8] = (0...16384).map { step in
        let linear = Double(step) / 16384
        let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return UInt8(min(max((encoded * 255).rounded(), 0), 255))
    }

    private static let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]

    /// D50 XYZ → linear sRGB: the inverse of the colorants the sRGB IEC 61966-2.1 profile writes
    /// (Bradford-adapted to D50).
    private static let fromD50ToLinearSRGB = Matrix3([
        0.436066, 0.385147, 0.143066,
        0.222488, 0.716873, 0.060608,
        0.013916, 0.097076, 0.714096,
    ]).inverted!
}
