// MARK: - PassRounding

/// How a pass turns its `Int32` accumulators into stored values: add half an output
/// unit, shift right by `shift` bits, clamp to `lower...upper`.
struct PassRounding {
    let shift: Int32
    let bias: Int32
    let lower: Int32
    let upper: Int32

    /// For a pass reading `Source` and writing `Destination` with weights of
    /// ``AxisWeights/fractionBits`` bits, clamping to `lower...upper` (in `Destination` units).
    init<Source: ResamplingSource, Destination: ResamplingSource>(
        from _: Source.Type, to _: Destination.Type, lower: Int32, upper: Int32
    ) {
        let shift = Source.fractionBits + AxisWeights.fractionBits - Destination.fractionBits
        self.init(shift: Int32(shift), bias: Int32(1 << (shift - 1)), lower: lower, upper: upper)
    }

    private init(shift: Int32, bias: Int32, lower: Int32, upper: Int32) {
        self.shift = shift
        self.bias = bias
        self.lower = lower
        self.upper = upper
    }

    /// Keeps the accumulators as they are, for a `Float` intermediate: the second pass
    /// scales by `2^-(fractionBits of the source + weight fraction bits)`.
    static let unscaled = PassRounding(shift: 0, bias: 0, lower: .min, upper: .max)
}

// MARK: - Narrowing

/// ``PassRounding`` spread across the lanes of a vector type, for the pass loops:
/// accumulators start at ``bias`` and end through ``callAsFunction(_:)``.
struct Narrowing<V: SIMD> where V.Scalar == Int32 {
    /// Half an output unit: the accumulators' starting value, so the shift rounds.
    let bias: V
    let shift: V
    let lower: V
    let upper: V

    init(_ rounding: PassRounding) {
        bias = V(repeating: rounding.bias)
        shift = V(repeating: rounding.shift)
        lower = V(repeating: rounding.lower)
        upper = V(repeating: rounding.upper)
    }

    /// `value` shifted down and clamped. Inlined into the loops.
    @inline(__always)
    func callAsFunction(_ value: V) -> V {
        (value &>> shift).clamped(lowerBound: lower, upperBound: upper)
    }
}
