// MARK: - FloatPixelOutput

/// How the second (`Float`) pass of a two-axis resize turns one pixel's accumulated
/// RGBA, in 0…255 units, into bytes. Both variants are inlined into the pass loops.
protocol FloatPixelOutput: SendableMetatype {
    /// The four channels rounded to bytes (held in `Int32` lanes).
    static func finish(_ value: SIMD4<Float>) -> SIMD4<Int32>
}

/// Opaque (or straight) values: rounded, halves to even, and clamped to 0…255.
///
/// Clamping happens on the rounded integers: `SIMD4<Float>.clamped` is compiled to
/// out-of-line NaN-aware calls that took a third of the pass's time.
enum ClampedOutput: FloatPixelOutput {
    @inline(__always)
    static func finish(_ value: SIMD4<Float>) -> SIMD4<Int32> {
        roundedToIntegers(value).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
    }
}

/// Premultiplied values, un-premultiplied on the way out: alpha is clamped and rounded;
/// colours become `c · 255 / a`, clamped (ringing can make them brighter than their
/// alpha). A pixel whose alpha rounds to 0 becomes `(0, 0, 0, 0)`.
enum UnpremultipliedOutput: FloatPixelOutput {
    @inline(__always)
    static func finish(_ value: SIMD4<Float>) -> SIMD4<Int32> {
        let alpha = min(max(value[3], 0), 255)
        // At most 0.5 rounds to an alpha of 0 (halves to even), which takes the colour with
        // it. Otherwise colours are at most 255 · 1.3 · 255 / 0.5, well inside `roundedToIntegers`'s range.
        let scale: Float = alpha > 0.5 ? 255 / alpha : 0
        var straight = value * scale
        straight[3] = alpha
        return roundedToIntegers(straight).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
    }
}
