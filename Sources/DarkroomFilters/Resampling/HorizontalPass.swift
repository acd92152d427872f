// MARK: - Horizontal pass

/// Resamples rows of RGBA pixels along x: `rows` of `source` (each `weights.sourceLength`
/// pixels wide) into the same rows of `destination` (each `weights.destinationLength` wide).
func resampleHorizontally<Source: ResamplingSource, Destination: ResamplingDestination>(
    source: UnsafePointer<Source>, destination: UnsafeMutablePointer<Destination>,
    weights: AxisWeights, rows: Range<Int>, rounding: PassRounding
) {
    let sourceRowLength = weights.sourceLength * 4
    let outputWidth = weights.destinationLength
    let stride = weights.stride
    let narrow = Narrowing<SIMD4<Int32>>(rounding), bias = narrow.bias

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
                        Destination.store4(narrow(a0), destinationRow, o)
                        Destination.store4(narrow(a1), destinationRow, o + r)
                        Destination.store4(narrow(a2), destinationRow, o + 2 * r)
                        Destination.store4(narrow(a3), destinationRow, o + 3 * r)
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
                        Destination.store4(narrow(acc), destinationRow, x * 4)
                        w += stride
                    }
                    row += 1
                }
            }
        }
    }
}

// MARK: - Horizontal pass with premultiplication

/// ``resampleHorizontally(source:destination:weights:rows:rounding:)`` for straight-alpha
/// bytes: premultiplies four rows at a time into a small scratch buffer (which stays
/// in cache) and filters them from there.
func resampleHorizontallyPremultiplying<Destination: ResamplingDestination>(
    source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<Destination>,
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
