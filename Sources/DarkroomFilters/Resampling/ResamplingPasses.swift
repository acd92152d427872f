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
    let bias = SIMD4<Int32>(repeating: rounding.bias)
    let shift = SIMD4<Int32>(repeating: rounding.shift)
    let lower = SIMD4<Int32>(repeating: rounding.lower), upper = SIMD4<Int32>(repeating: rounding.upper)

    weights.starts.withUnsafeBufferPointer { starts in
        weights.counts.withUnsafeBufferPointer { counts in
            weights.weights.withUnsafeBufferPointer { allWeights in
                let starts = starts.baseAddress!, counts = counts.baseAddress!, allWeights = allWeights.baseAddress!
                // Four rows at a time share every weight broadcast.
                var row = rows.lowerBound
                while row + 4 <= rows.upperBound {
                    let sourceRow = source + row * sourceRowLength
                    let destinationRow = destination + row * outputWidth * 4
                    var w = allWeights
                    for x in 0..<outputWidth {
                        var p = sourceRow + Int(starts[x]) * 4
                        let count = Int(counts[x])
                        var a0 = bias, a1 = bias, a2 = bias, a3 = bias
                        for k in 0..<count {
                            let weight = SIMD4(repeating: Int32(w[k]))
                            a0 &+= Source.load4(p, 0) &* weight
                            a1 &+= Source.load4(p, sourceRowLength) &* weight
                            a2 &+= Source.load4(p, 2 * sourceRowLength) &* weight
                            a3 &+= Source.load4(p, 3 * sourceRowLength) &* weight
                            p += 4
                        }
                        let o = x * 4, r = outputWidth * 4
                        Destination.store4((a0 &>> shift).clamped(lowerBound: lower, upperBound: upper), destinationRow, o)
                        Destination.store4((a1 &>> shift).clamped(lowerBound: lower, upperBound: upper), destinationRow, o + r)
                        Destination.store4((a2 &>> shift).clamped(lowerBound: lower, upperBound: upper), destinationRow, o + 2 * r)
                        Destination.store4((a3 &>> shift).clamped(lowerBound: lower, upperBound: upper), destinationRow, o + 3 * r)
                        w += stride
                    }
                    row += 4
                }
                while row < rows.upperBound {
                    let sourceRow = source + row * sourceRowLength
                    let destinationRow = destination + row * outputWidth * 4
                    var w = allWeights
                    for x in 0..<outputWidth {
                        var p = sourceRow + Int(starts[x]) * 4
                        let count = Int(counts[x])
                        var acc = bias
                        for k in 0..<count {
                            acc &+= Source.load4(p, 0) &* SIMD4(repeating: Int32(w[k]))
                            p += 4
                        }
                        Destination.store4((acc &>> shift).clamped(lowerBound: lower, upperBound: upper), destinationRow, x * 4)
                        w += stride
                    }
                    row += 1
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
                    // Thirty-two channels (eight pixels) at a time, all taps per block.
                    while x + 32 <= rowLength {
                        var left = bias16, right = bias16
                        var p = first + x
                        for k in 0..<count {
                            let weight = SIMD16(repeating: Int32(w[k]))
                            left &+= Source.load16(p, 0) &* weight
                            right &+= Source.load16(p, 16) &* weight
                            p += rowLength
                        }
                        Destination.store16((left &>> shift16).clamped(lowerBound: lower16, upperBound: upper16), destinationRow, x)
                        Destination.store16((right &>> shift16).clamped(lowerBound: lower16, upperBound: upper16), destinationRow, x + 16)
                        x += 32
                    }
                    while x < rowLength {
                        var acc = bias4
                        var p = first + x
                        for k in 0..<count {
                            acc &+= Source.load4(p, 0) &* SIMD4(repeating: Int32(w[k]))
                            p += rowLength
                        }
                        Destination.store4((acc &>> shift4).clamped(lowerBound: lower4, upperBound: upper4), destinationRow, x)
                        x += 4
                    }
                }
            }
        }
    }
}

// MARK: - Horizontal pass with premultiplication

/// ``resampleHorizontally(source:destination:weights:rows:rounding:)`` for straight-alpha
/// bytes: premultiplies four rows at a time into a small scratch buffer (which stays
/// in cache) and filters them from there.
func resampleHorizontallyPremultiplying(
    source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<Int16>,
    weights: AxisWeights, rows: Range<Int>, rounding: PassRounding
) {
    let groupSize = 4
    let sourceRowLength = weights.sourceLength * 4, destinationRowLength = weights.destinationLength * 4
    let scratch = UnsafeMutablePointer<Int16>.allocate(capacity: groupSize * sourceRowLength)
    defer { scratch.deallocate() }
    var row = rows.lowerBound
    while row < rows.upperBound {
        let count = min(groupSize, rows.upperBound - row)
        premultiplyForResampling(
            source + row * sourceRowLength, into: scratch, pixelCount: count * weights.sourceLength)
        resampleHorizontally(
            source: UnsafePointer(scratch), destination: destination + row * destinationRowLength,
            weights: weights, rows: 0..<count, rounding: rounding)
        row += count
    }
}
