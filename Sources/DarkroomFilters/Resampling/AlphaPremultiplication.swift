// MARK: - Premultiplying for resampling

/// Converts straight-alpha RGBA8 into premultiplied RGBA with ``Int16/fractionBits``
/// fraction bits: `c' = round(c · a · 64 / 255)` and `a' = 64 · a`. Keeping six extra
/// bits means the colours of faint pixels survive the trip through the filter.
///
/// The rounding is exact: `c · a · 128` is never an odd multiple of 255, so no value
/// lies within 1/510 of a tie, far beyond `Float`'s error on numbers below 2¹⁴.
///
/// `destination` must hold `pixelCount * 4` values.
func premultiplyForResampling(
    _ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<Int16>, pixelCount: Int
) {
    let factor = SIMD4<Float>(repeating: Float(1 << Int16.fractionBits) / 255)
    for i in Swift.stride(from: 0, to: pixelCount * 4, by: 4) {
        let pixel = UInt8.load4(source, i)
        let alpha = pixel[3]
        let products = pixel &* SIMD4(alpha, alpha, alpha, 255)
        Int16.store4(roundedNonNegative(SIMD4<Float>(products) * factor), destination, i)
    }
}

/// Converts premultiplied RGBA with ``Int16/fractionBits`` fraction bits (already
/// clamped to `0 ... 255 << 6`) back to straight-alpha RGBA8. A pixel whose alpha
/// rounds to 0 becomes `(0, 0, 0, 0)`; colours brighter than their alpha (ringing)
/// clamp to 255.
func unpremultiplyAfterResampling(
    _ source: UnsafePointer<Int16>, into destination: UnsafeMutablePointer<UInt8>, pixelCount: Int
) {
    let half = Int32(1 << (Int16.fractionBits - 1))
    let zero = SIMD4<Int32>(repeating: 0), full = SIMD4<Int32>(repeating: 255)
    for i in Swift.stride(from: 0, to: pixelCount * 4, by: 4) {
        let pixel = Int16.load4(source, i)
        let alpha = (pixel[3] &+ half) &>> Int32(Int16.fractionBits)
        if alpha == 0 {
            UInt8.store4(zero, destination, i)
            continue
        }
        // colour = round(c' · 255 / a'), in 0...255 (c' ≥ 0, so the product is below 2²²).
        let scale = SIMD4<Float>(repeating: 255 / Float(pixel[3]))
        var colour = roundedNonNegative(SIMD4<Float>(pixel) * scale)
        colour = colour.clamped(lowerBound: zero, upperBound: full)
        colour[3] = alpha
        UInt8.store4(colour, destination, i)
    }
}

// MARK: - Rounding without libm

/// Rounds each lane of `value` (which must lie in `0 ..< 2²²`) to the nearest integer,
/// ties to even, with vector instructions: adding 1.5 · 2²³ leaves the integer in
/// the low mantissa bits. (`SIMD4<Int32>(SIMD4<Float>)` and `.rounded()` compile to
/// per-lane library calls.)
@inline(__always)
func roundedNonNegative(_ value: SIMD4<Float>) -> SIMD4<Int32> {
    let magic: Float = 12_582_912  // 1.5 · 2²³
    let bits = unsafeBitCast(value + SIMD4(repeating: magic), to: SIMD4<Int32>.self)
    return bits &- SIMD4(repeating: Int32(bitPattern: magic.bitPattern))
}
