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
    init<Source: ResamplingSample, Destination: ResamplingSample>(
        from _: Source.Type, to _: Destination.Type, lower: Int32, upper: Int32
    ) {
        let shift = Source.fractionBits + AxisWeights.fractionBits - Destination.fractionBits
        self.shift = Int32(shift)
        self.bias = Int32(1 << (shift - 1))
        self.lower = lower
        self.upper = upper
    }
}

// MARK: - Horizontal pass

/// Resamples rows of RGBA pixels along x: `rows` of `source` (each `weights.sourceLength`
/// pixels wide) into the same rows of `destination` (each `weights.destinationLength` wide).
func resampleHorizontally<Source: ResamplingSample, Destination: ResamplingSample>(
    source: UnsafePointer<Source>, destination: UnsafeMutablePointer<Destination>,
    weights: AxisWeights, rows: Range<Int>, rounding: PassRounding
) {
    let sourceRowLength = weights.sourceLength * 4
    let outputWidth = weights.destinationLength
    let stride = weights.stride
    let bias = SIMD4<Int32>(repeating: rounding.bias), zero = SIMD4<Int32>(repeating: 0)
    let shift = SIMD4<Int32>(repeating: rounding.shift)
    let lower = SIMD4<Int32>(repeating: rounding.lower), upper = SIMD4<Int32>(repeating: rounding.upper)

    weights.starts.withUnsafeBufferPointer { starts in
        weights.counts.withUnsafeBufferPointer { counts in
            weights.weights.withUnsafeBufferPointer { allWeights in
                let starts = starts.baseAddress!, counts = counts.baseAddress!, allWeights = allWeights.baseAddress!
                for row in rows {
                    let sourceRow = source + row * sourceRowLength
                    let destinationRow = destination + row * outputWidth * 4
                    var w = allWeights
                    for x in 0..<outputWidth {
                        var p = sourceRow + Int(starts[x]) * 4
                        let count = Int(counts[x])
                        // Two accumulators: independent dependency chains.
                        var even = bias, odd = zero
                        var k = 0
                        while k + 1 < count {
                            even &+= Source.load4(p, 0) &* SIMD4(repeating: Int32(w[k]))
                            odd &+= Source.load4(p, 4) &* SIMD4(repeating: Int32(w[k + 1]))
                            p += 8
                            k += 2
                        }
                        if k < count {
                            even &+= Source.load4(p, 0) &* SIMD4(repeating: Int32(w[k]))
                        }
                        let value = ((even &+ odd) &>> shift).clamped(lowerBound: lower, upperBound: upper)
                        Destination.store4(value, destinationRow, x * 4)
                        w += stride
                    }
                }
            }
        }
    }
}

// MARK: - Vertical pass

/// Resamples columns of RGBA pixels along y: output rows `rows` of `destination`
/// (`width` pixels each) from the rows of `source` that `weights` name.
func resampleVertically<Source: ResamplingSample, Destination: ResamplingSample>(
    source: UnsafePointer<Source>, destination: UnsafeMutablePointer<Destination>,
    width: Int, weights: AxisWeights, rows: Range<Int>, rounding: PassRounding
) {
    let rowLength = width * 4
    let bias16 = SIMD16<Int32>(repeating: rounding.bias), shift16 = SIMD16<Int32>(repeating: rounding.shift)
    let lower16 = SIMD16<Int32>(repeating: rounding.lower), upper16 = SIMD16<Int32>(repeating: rounding.upper)
    let bias4 = SIMD4<Int32>(repeating: rounding.bias), shift4 = SIMD4<Int32>(repeating: rounding.shift)
    let lower4 = SIMD4<Int32>(repeating: rounding.lower), upper4 = SIMD4<Int32>(repeating: rounding.upper)

    weights.starts.withUnsafeBufferPointer { starts in
        weights.counts.withUnsafeBufferPointer { counts in
            weights.weights.withUnsafeBufferPointer { allWeights in
                for y in rows {
                    let first = source + Int(starts[y]) * rowLength
                    let count = Int(counts[y])
                    let w = allWeights.baseAddress! + y * weights.stride
                    let destinationRow = destination + y * rowLength
                    var x = 0
                    // Sixteen channels (four pixels) at a time, all taps per block.
                    while x + 16 <= rowLength {
                        var acc = bias16
                        var p = first + x
                        for k in 0..<count {
                            acc &+= Source.load16(p, 0) &* SIMD16(repeating: Int32(w[k]))
                            p += rowLength
                        }
                        let value = (acc &>> shift16).clamped(lowerBound: lower16, upperBound: upper16)
                        Destination.store16(value, destinationRow, x)
                        x += 16
                    }
                    while x < rowLength {
                        var acc = bias4
                        var p = first + x
                        for k in 0..<count {
                            acc &+= Source.load4(p, 0) &* SIMD4(repeating: Int32(w[k]))
                            p += rowLength
                        }
                        let value = (acc &>> shift4).clamped(lowerBound: lower4, upperBound: upper4)
                        Destination.store4(value, destinationRow, x)
                        x += 4
                    }
                }
            }
        }
    }
}
