// MARK: - Premultiplying for resampling

/// Converts straight-alpha RGBA8 into premultiplied RGBA with ``Int16/fractionBits``
/// (6) fraction bits: `c' = round(64 · c · a / 255)` and `a' = 64 · a`, exactly.
/// The six extra bits keep the colours of faint pixels through the filter.
///
/// All in 16-bit lanes: with `t = c · a` (at most 65025), `q = ⌊t / 255⌋` is
/// `(t + 1 + (t >> 8)) >> 8`, and `(t + q + 2) >> 2` equals `round(64t / 255)` for
/// every `c` and `a` (checked exhaustively). Alpha lanes use 255 as their multiplier,
/// which yields `64 · a`.
///
/// `destination` must hold `pixelCount * 4` values.
func premultiplyForResampling(
    _ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<Int16>, pixelCount: Int
) {
    let count = pixelCount * 4
    var i = 0
    // Four pixels at a time.
    while i + 16 <= count {
        let x = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(source + i).loadUnaligned(as: SIMD16<UInt8>.self))
        let multiplier = SIMD16<UInt16>(
            x[3], x[3], x[3], 255, x[7], x[7], x[7], 255, x[11], x[11], x[11], 255, x[15], x[15], x[15], 255)
        let t = x &* multiplier
        let q = (t &+ 1 &+ (t &>> 8)) &>> 8
        let premultiplied = (t &+ q &+ 2) &>> 2
        UnsafeMutableRawPointer(destination + i).storeBytes(of: premultiplied, as: SIMD16<UInt16>.self)
        i += 16
    }
    while i < count {
        let alpha = UInt32(source[i + 3])
        for c in 0..<4 {
            let t = UInt32(source[i + c]) * (c == 3 ? 255 : alpha)
            let q = (t + 1 + (t >> 8)) >> 8
            destination[i + c] = Int16(truncatingIfNeeded: (t + q + 2) >> 2)
        }
        i += 4
    }
}

/// Converts premultiplied RGBA with ``Int16/fractionBits`` fraction bits (already
/// clamped to `0 ... 255 << 6`) back to straight-alpha RGBA8: `c = round(255 · c' / a')`,
/// `a = round(a' / 64)` (ties to even). A pixel whose alpha rounds to 0 becomes
/// `(0, 0, 0, 0)`; colours brighter than their alpha (ringing) clamp to 255.
func unpremultiplyAfterResampling(
    _ source: UnsafePointer<Int16>, into destination: UnsafeMutablePointer<UInt8>, pixelCount: Int
) {
    let count = pixelCount * 4
    let alphaScale = 1 / Float(1 << Int16.fractionBits)
    UnpremultiplyTable.reciprocals.withUnsafeBufferPointer { reciprocals in
        let zero = SIMD4<Int32>(repeating: 0), full = SIMD4<Int32>(repeating: 255)
        for i in Swift.stride(from: 0, to: count, by: 4) {
            let p = Int16.load4(source, i)
            let r = reciprocals[Int(p[3])]
            let value = roundedToIntegers(SIMD4<Float>(p) * SIMD4(r, r, r, alphaScale))
            UInt8.store4(value.clamped(lowerBound: zero, upperBound: full), destination, i)
        }
    }
}

/// `255 / a'` for every premultiplied alpha `a'` in `0 ... 255 << 6`, and 0 where
/// `a'` rounds to an alpha byte of 0 (`a' ≤ 32`: 0.5 rounds to even).
enum UnpremultiplyTable {
    static let reciprocals: [Float] = (0...(255 << Int16.fractionBits)).map { alpha in
        alpha <= 1 << (Int16.fractionBits - 1) ? 0 : 255 / Float(alpha)
    }
}
