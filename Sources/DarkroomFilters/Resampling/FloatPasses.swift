// MARK: - Second passes, in Float
//
// The first pass of a two-axis resize accumulates bytes (or premultiplied `Int16`) in
// fixed point and stores the raw `Int32` sums as `Float`; these passes filter that
// intermediate with `Float` weights that carry the fixed-point scale, and finish each
// pixel through a ``FloatPixelOutput``. Measured faster than fixed point for this half
// (no widening per tap) and than `Float` for the first half (no conversion per tap);
// see `Benchmarks/resampler/README.md`.

/// Resamples rows of a `Float` RGBA intermediate along x into bytes: rows `rows` of
/// `source` (`weights.sourceLength` pixels wide) into the same rows of `destination`.
/// `floatWeights` is `weights.weights` times the intermediate's scale.
func resampleHorizontallyFromFloat<Output: FloatPixelOutput>(
    source: UnsafePointer<Float>, destination: UnsafeMutablePointer<UInt8>, weights: AxisWeights,
    floatWeights: [Float], rows: Range<Int>, output _: Output.Type
) {
    let sourceRowLength = weights.sourceLength * 4
    let outputWidth = weights.destinationLength, outputRowLength = outputWidth * 4
    let stride = weights.stride

    weights.starts.withUnsafeBufferPointer { starts in
        weights.counts.withUnsafeBufferPointer { counts in
            floatWeights.withUnsafeBufferPointer { allWeights in
                let starts = starts.baseAddress!, counts = counts.baseAddress!, allWeights = allWeights.baseAddress!
                // Four rows at a time share every weight broadcast.
                var row = rows.lowerBound
                while row + 4 <= rows.upperBound {
                    let sourceRow = source + row * sourceRowLength
                    let destinationRow = destination + row * outputRowLength
                    var w = allWeights
                    for x in 0..<outputWidth {
                        var p = sourceRow + Int(starts[x]) * 4
                        var a0 = SIMD4<Float>(), a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), a3 = SIMD4<Float>()
                        for k in 0..<Int(counts[x]) {
                            let weight = SIMD4(repeating: w[k])
                            a0 += loadFloat4(p, 0) * weight
                            a1 += loadFloat4(p, sourceRowLength) * weight
                            a2 += loadFloat4(p, 2 * sourceRowLength) * weight
                            a3 += loadFloat4(p, 3 * sourceRowLength) * weight
                            p += 4
                        }
                        let o = x * 4
                        UInt8.store4(Output.finish(a0), destinationRow, o)
                        UInt8.store4(Output.finish(a1), destinationRow, o + outputRowLength)
                        UInt8.store4(Output.finish(a2), destinationRow, o + 2 * outputRowLength)
                        UInt8.store4(Output.finish(a3), destinationRow, o + 3 * outputRowLength)
                        w += stride
                    }
                    row += 4
                }
                while row < rows.upperBound {
                    let sourceRow = source + row * sourceRowLength
                    let destinationRow = destination + row * outputRowLength
                    var w = allWeights
                    for x in 0..<outputWidth {
                        var p = sourceRow + Int(starts[x]) * 4
                        var acc = SIMD4<Float>()
                        for k in 0..<Int(counts[x]) {
                            acc += loadFloat4(p, 0) * SIMD4(repeating: w[k])
                            p += 4
                        }
                        UInt8.store4(Output.finish(acc), destinationRow, x * 4)
                        w += stride
                    }
                    row += 1
                }
            }
        }
    }
}

/// Resamples a `Float` RGBA intermediate along y into bytes: output rows `rows` of
/// `destination` (`width` pixels each) from the rows of `source` that `weights` name.
/// Source row `r` is at row `r - sourceFirstRow` of `source` (a window of the intermediate).
func resampleVerticallyFromFloat<Output: FloatPixelOutput>(
    source: UnsafePointer<Float>, destination: UnsafeMutablePointer<UInt8>, width: Int, weights: AxisWeights,
    floatWeights: [Float], rows: Range<Int>, output _: Output.Type, sourceFirstRow: Int = 0
) {
    let rowLength = width * 4
    weights.starts.withUnsafeBufferPointer { starts in
        weights.counts.withUnsafeBufferPointer { counts in
            floatWeights.withUnsafeBufferPointer { allWeights in
                for y in rows {
                    let first = source + (Int(starts[y]) - sourceFirstRow) * rowLength
                    let count = Int(counts[y])
                    let w = allWeights.baseAddress! + y * weights.stride
                    let destinationRow = destination + y * rowLength
                    var x = 0
                    // Four pixels at a time, all taps per block.
                    while x + 16 <= rowLength {
                        var a0 = SIMD4<Float>(), a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), a3 = SIMD4<Float>()
                        var p = first + x
                        for k in 0..<count {
                            let weight = SIMD4(repeating: w[k])
                            a0 += loadFloat4(p, 0) * weight
                            a1 += loadFloat4(p, 4) * weight
                            a2 += loadFloat4(p, 8) * weight
                            a3 += loadFloat4(p, 12) * weight
                            p += rowLength
                        }
                        UInt8.store4(Output.finish(a0), destinationRow, x)
                        UInt8.store4(Output.finish(a1), destinationRow, x + 4)
                        UInt8.store4(Output.finish(a2), destinationRow, x + 8)
                        UInt8.store4(Output.finish(a3), destinationRow, x + 12)
                        x += 16
                    }
                    while x < rowLength {
                        var acc = SIMD4<Float>()
                        var p = first + x
                        for k in 0..<count {
                            acc += loadFloat4(p, 0) * SIMD4(repeating: w[k])
                            p += rowLength
                        }
                        UInt8.store4(Output.finish(acc), destinationRow, x)
                        x += 4
                    }
                }
            }
        }
    }
}

/// Four `Float`s from `base[index...]`.
@inline(__always)
func loadFloat4(_ base: UnsafePointer<Float>, _ index: Int) -> SIMD4<Float> {
    UnsafeRawPointer(base + index).loadUnaligned(as: SIMD4<Float>.self)
}
