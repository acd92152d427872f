import DarkroomCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - RoundedRectMask

/// Cuts an image to the rounded rectangle that fills it, with anti-aliased corners: the exact
/// area of each pixel covered by the shape (0…255) scales the pixel's alpha,
/// `alpha' = alpha × coverage / 255`, as masking with "destination-in" does in sharp, vips and
/// ImageMagick. For an opaque image that is the coverage itself, and a translucent image keeps
/// an anti-aliased edge. Masking twice therefore darkens the edge pixels again, so the shape
/// filters are not idempotent. Pixels left fully transparent become transparent black.
///
/// Only pixels in the four `⌈r⌉`×`⌈r⌉` corner squares are examined. Each is folded onto the
/// top-left quarter (the shape is symmetric about both centre lines), where the shape is
/// `x ≥ r or y ≥ r or inside the circle of radius r about (r, r)`, and its coverage is computed
/// in closed form (the integral of the circle's chord). So the corners are exact mirror images.
///
/// ```swift
/// let card = RoundedRectMask.apply(to: image, radius: 16)
/// let disc = RoundedRectMask.apply(to: square, radius: Double(square.width) / 2)
/// ```
enum RoundedRectMask {
    /// The masked image, `hasAlpha == true`. `radius` is clamped to half the shorter side
    /// (a square with the largest radius becomes a disc).
    static func apply(to image: Image, radius: Double) -> Image {
        let width = image.width, height = image.height
        let halfWidth = Double(width) / 2, halfHeight = Double(height) / 2
        let r = min(max(0, radius), halfWidth, halfHeight)
        let corner = Int(r.rounded(.up))

        return image.pixels.withUnsafeBufferPointer { source in
            Image(width: width, height: height, hasAlpha: true) { out in
                out.baseAddress!.initialize(from: source.baseAddress!, count: source.count)
                guard corner > 0 else { return }
                // The corner squares' rows and columns (no overlap when the image is small).
                let zoneRows = Array(0..<min(corner, height)) + Array(max(corner, height - corner)..<height)
                let zoneColumns = Array(0..<min(corner, width)) + Array(max(corner, width - corner)..<width)
                for y in zoneRows {
                    // The folded row: [y0, y1] in the top quarter, counted twice when the middle
                    // row of an odd height straddles the centre line.
                    let y0 = Double(min(y, height - 1 - y))
                    let y1 = min(y0 + 1, halfHeight), rowWeight = y0 + 1 > halfHeight ? 2.0 : 1.0
                    for x in zoneColumns {
                        let x0 = Double(min(x, width - 1 - x))
                        let x1 = min(x0 + 1, halfWidth), columnWeight = x0 + 1 > halfWidth ? 2.0 : 1.0
                        let coverage: UInt8
                        if x0 >= r || y0 >= r || (r - x0) * (r - x0) + (r - y0) * (r - y0) <= r * r {
                            coverage = 255  // beside the corner square, or wholly inside the circle
                        } else {
                            let cx = min(x1, r), cy = min(y1, r)
                            // The part of the pixel inside the corner square but outside the circle.
                            let outside = (cx - x0) * (cy - y0) - discArea(r - cx, r - x0, r - cy, r - y0, radius: r)
                            let covered = rowWeight * columnWeight * ((x1 - x0) * (y1 - y0) - outside)
                            coverage = UInt8(max(0, min(255, (covered * 255).rounded())))
                        }
                        let i = (y * width + x) * 4
                        guard coverage < 255 else { continue }
                        // alpha × coverage / 255, rounded (exact for 8-bit operands).
                        let product = Int(out[i + 3]) * Int(coverage) + 128
                        let alpha = UInt8((product + product >> 8) >> 8)
                        out[i + 3] = alpha
                        if alpha == 0 { out[i] = 0; out[i + 1] = 0; out[i + 2] = 0 }
                    }
                }
            }
        }
    }

    /// The area of `[u0, u1] × [v0, v1]` (all ≥ 0) inside the circle `u² + v² ≤ r²`:
    /// `∫ clamp(√(r² − u²) − v0, 0, v1 − v0) du`, split where the chord meets `v1` and `v0`.
    @inline(__always)
    static func discArea(_ u0: Double, _ u1: Double, _ v0: Double, _ v1: Double, radius r: Double) -> Double {
        guard u1 > u0, v1 > v0 else { return 0 }
        let full = min(max((r * r - v1 * v1).squareRoot().nanToZero, u0), u1)  // below: the whole height
        let none = min(max((r * r - v0 * v0).squareRoot().nanToZero, u0), u1)  // above: nothing
        return (v1 - v0) * (full - u0) + chordIntegral(none, r) - chordIntegral(full, r) - v0 * (none - full)
    }

    /// `∫₀ᵘ √(r² − t²) dt` for `0 ≤ u ≤ r`.
    @inline(__always)
    static func chordIntegral(_ u: Double, _ r: Double) -> Double {
        let t = min(u, r)
        return (t * (r * r - t * t).squareRoot() + r * r * asin(t / r)) / 2
    }
}

extension Double {
    /// `0` for NaN (a square root of a negative number), else the value.
    fileprivate var nanToZero: Double { isNaN ? 0 : self }
}
