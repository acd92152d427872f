// MARK: - Rounding Float vectors without libm

/// Rounds each lane of `value` (which must lie in `-2²² ..< 2²²`) to the nearest
/// integer, ties to even, with vector instructions: adding 1.5 · 2²³ leaves the integer
/// in the low mantissa bits. (`SIMD4<Int32>(SIMD4<Float>)` and `.rounded()` compile to
/// per-lane library calls.)
@inline(__always)
func roundedToIntegers(_ value: SIMD4<Float>) -> SIMD4<Int32> {
    let magic: Float = 12_582_912  // 1.5 · 2²³
    let bits = unsafeBitCast(value + SIMD4(repeating: magic), to: SIMD4<Int32>.self)
    return bits &- SIMD4(repeating: Int32(bitPattern: magic.bitPattern))
}
