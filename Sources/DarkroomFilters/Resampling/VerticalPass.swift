// MARK: - Vertical pass

/// Resamples columns of RGBA pixels along y: output rows `rows` of `destination`
/// (`width` pixels each) from the rows of `source` that `weights` name. Output row `y` is
/// stored at row `y - destinationFirstRow` of `destination` (a buffer for a few rows).
func resampleVertically<Source: ResamplingSource, Destination: ResamplingDestination>(
    source: UnsafePointer<Source>, destination: UnsafeMutablePointer<Destination>,
    width: Int, weights: AxisWeights, rows: Range<Int>, rounding: PassRounding, destinationFirstRow: Int = 0
) {
    let rowLength = width * 4
    let narrow16 = Narrowing<SIMD16<Int32>>(rounding), narrow4 = Narrowing<SIMD4<Int32>>(rounding)

    weights.starts.withUnsafeBufferPointer { starts in
        weights.counts.withUnsafeBufferPointer { counts in
            weights.weights.withUnsafeBufferPointer { allWeights in
                for y in rows {
                    let first = source + Int(starts[y]) * rowLength
                    let count = Int(counts[y])
                    let w = allWeights.baseAddress! + y * weights.stride
                    let destinationRow = destination + (y - destinationFirstRow) * rowLength
                    var x = 0
                    // Thirty-two channels (eight pixels) at a time, all taps per block.
                    while x + 32 <= rowLength {
                        var left = narrow16.bias, right = narrow16.bias
                        var p = first + x
                        for k in 0..<count {
                            let weight = SIMD16(repeating: Int32(w[k]))
                            left &+= Source.load16(p, 0) &* weight
                            right &+= Source.load16(p, 16) &* weight
                            p += rowLength
                        }
                        Destination.store16(narrow16(left), destinationRow, x)
                        Destination.store16(narrow16(right), destinationRow, x + 16)
                        x += 32
                    }
                    while x < rowLength {
                        var acc = narrow4.bias
                        var p = first + x
                        for k in 0..<count {
                            acc &+= Source.load4(p, 0) &* SIMD4(repeating: Int32(w[k]))
                            p += rowLength
                        }
                        Destination.store4(narrow4(acc), destinationRow, x)
                        x += 4
                    }
                }
            }
        }
    }
}
