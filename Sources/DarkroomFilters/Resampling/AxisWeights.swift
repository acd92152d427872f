// MARK: - AxisWeights

/// The precomputed contributions for resampling one axis from `sourceLength` to
/// `destinationLength` samples: for output index `i`, the source indices
/// `starts[i] ..< starts[i] + counts[i]` with the fixed-point weights
/// `weights[i * stride ..< i * stride + counts[i]]`, which sum to exactly
/// `1 << fractionBits` (so a constant signal stays exactly constant).
///
/// Geometry: output sample `i` has its centre at `(i + 0.5) · scale − 0.5` in source
/// coordinates, `scale = sourceLength / destinationLength` (no half-pixel shift).
/// With a `window`, only the outputs `window` of a resize to `scaledLength` are made (output
/// `k` is sample `window.lowerBound + k`), exactly as the whole resize would make them: a
/// resize followed by a crop, without the pixels the crop would drop.
/// Shrinking stretches the kernel by `scale`; enlarging uses it as is. Taps that
/// fall outside the source are dropped and the rest renormalised, so edges keep
/// their brightness.
struct AxisWeights: Sendable {
    /// Weights are integers with this many fraction bits: 1.0 is `1 << 14`.
    /// 14 bits keep any renormalised weight (below 2.0 for these kernels) inside `Int16`,
    /// which lets the first pass multiply with `pmaddwd`.
    static let fractionBits = 14
    static let one = 1 << fractionBits

    let sourceLength: Int
    let destinationLength: Int
    /// Distance between the weight lists of consecutive outputs (the longest list).
    let stride: Int
    /// First source index of each output.
    let starts: [Int32]
    /// Number of source indices of each output (at least 1).
    let counts: [Int32]
    /// `destinationLength * stride` weights, zero-padded after each output's `count`.
    let weights: [Int16]

    /// The total number of taps over all outputs: the work of one line through this axis.
    let totalTaps: Int

    init(kernel: ResamplingKernel, sourceLength: Int, destinationLength scaledLength: Int, window: Range<Int>? = nil) {
        let outputs = window ?? 0..<scaledLength
        precondition(sourceLength > 0 && scaledLength > 0 && !outputs.isEmpty)
        precondition(outputs.lowerBound >= 0 && outputs.upperBound <= scaledLength)
        let destinationLength = outputs.count
        self.sourceLength = sourceLength
        self.destinationLength = destinationLength

        let scale = Double(sourceLength) / Double(scaledLength)
        let filterScale = max(scale, 1)
        let radius = kernel.support * filterScale
        let maxTaps = min(sourceLength, Int((2 * radius).rounded(.up)) + 2)

        var starts = [Int32](repeating: 0, count: destinationLength)
        var counts = [Int32](repeating: 0, count: destinationLength)
        var weights = [Int16](repeating: 0, count: destinationLength * maxTaps)
        var exact = [Double](repeating: 0, count: maxTaps)
        var quantised = [Int16](repeating: 0, count: maxTaps)
        var longest = 0
        var total = 0

        for i in 0..<destinationLength {
            let centre = (Double(outputs.lowerBound + i) + 0.5) * scale - 0.5
            // The window always holds a source index (it is at least one pixel wide and
            // its centre lies inside the image); `max` only guards the arithmetic.
            let first = min(sourceLength - 1, max(0, Int((centre - radius).rounded(.up))))
            let last = max(first, min(sourceLength - 1, first + maxTaps - 1, Int((centre + radius).rounded(.down))))

            // Kernel values and their sum.
            let taps = last - first + 1
            kernel.fillWeights(
                from: (Double(first) - centre) / filterScale, step: 1 / filterScale, count: taps, into: &exact)
            var sum = 0.0
            for k in 0..<taps { sum += exact[k] }

            let base = i * maxTaps
            guard sum != 0, sum.isFinite else {
                // No tap reached (cannot happen for the built-in kernels): nearest sample.
                weights[base] = Int16(Self.one)
                starts[i] = Int32(min(sourceLength - 1, max(0, Int(centre.rounded()))))
                counts[i] = 1
                longest = max(longest, 1)
                total += 1
                continue
            }

            // Normalise and quantise by rounding the running sum, so that every weight
            // is within one unit of its exact value and the sum is exactly `one`.
            var running = 0.0, previous = 0
            for k in 0..<taps {
                running += exact[k] / sum
                let next = k == taps - 1 ? Self.one : Int((running * Double(Self.one)).rounded())
                quantised[k] = Int16(clamping: next - previous)
                previous = next
            }
            // Drop the taps that round to nothing at both ends.
            var lo = 0, hi = taps - 1
            while lo < hi && quantised[lo] == 0 { lo += 1 }
            while hi > lo && quantised[hi] == 0 { hi -= 1 }
            for k in lo...hi { weights[base + k - lo] = quantised[k] }

            starts[i] = Int32(first + lo)
            counts[i] = Int32(hi - lo + 1)
            longest = max(longest, hi - lo + 1)
            total += hi - lo + 1
        }

        // Repack with the tightest stride (trimming usually shortens every list).
        if longest < maxTaps {
            var packed = [Int16](repeating: 0, count: destinationLength * longest)
            for i in 0..<destinationLength {
                for k in 0..<Int(counts[i]) { packed[i * longest + k] = weights[i * maxTaps + k] }
            }
            weights = packed
        }
        self.stride = longest
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.totalTaps = total
    }

    /// The weights of output `index` as real numbers (for tests and diagnostics).
    func realWeights(of index: Int) -> (start: Int, weights: [Double]) {
        let base = index * stride
        let ws = (0..<Int(counts[index])).map { Double(weights[base + $0]) / Double(Self.one) }
        return (Int(starts[index]), ws)
    }
}

extension AxisWeights {
    /// The weights as `Float`s multiplied by `scale` (a power of two, so the products
    /// are exact), laid out like ``weights``.
    func floatWeights(scaledBy scale: Float) -> [Float] {
        weights.map { Float($0) * scale }
    }
}
