import DarkroomCore

// MARK: - SeparableGaussian

/// A direct (FIR) separable Gaussian blur in `Float`: a horizontal pass over each row, then a
/// vertical pass. Edges are clamped (the border pixel repeats outwards). Colour is
/// premultiplied by alpha while it is averaged, so transparent pixels lend no colour.
///
/// Layout and speed: rows are converted to floats once; the horizontal pass keeps 16 outputs
/// in registers (`SIMD16<Float>`) and adds the symmetric taps pairwise; horizontally blurred
/// rows live in a ring of `2·radius + 1` rows, and each output row is summed from the ring in
/// whole-row sweeps (two tap pairs per sweep), which streams memory in order and vectorises.
/// Opaque images are blurred as 3 channels, skipping alpha.
enum SeparableGaussian {
    static func blur(_ image: Image, kernel: GaussianKernel) -> Image {
        let width = image.width, height = image.height
        let radius = kernel.radius
        let channels = image.hasAlpha ? 4 : 3
        let rowCount = width * channels
        let stride = (rowCount + 15) & ~15
        let ringCount = min(height, 2 * radius + 1)

        // Scratch: one padded source row (radius pixels each side, plus slack for the last
        // 16-wide load), the ring of blurred rows, one accumulator row, the ring row pointers.
        let padded = UnsafeMutablePointer<Float>.allocate(capacity: (width + 2 * radius) * channels + 16)
        padded.initialize(repeating: 0, count: (width + 2 * radius) * channels + 16)
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringCount * stride)
        ring.initialize(repeating: 0, count: ringCount * stride)
        let sum = UnsafeMutablePointer<Float>.allocate(capacity: stride)
        sum.initialize(repeating: 0, count: stride)
        let taps = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 2 * radius + 1)
        defer {
            padded.deallocate(); ring.deallocate(); sum.deallocate(); taps.deallocate()
        }

        return image.pixels.withUnsafeBufferPointer { source in
            kernel.weights.withUnsafeBufferPointer { w in
                Image(width: width, height: height, hasAlpha: image.hasAlpha) { output in
                    let src = source.baseAddress!, dst = output.baseAddress!
                    let body = padded + radius * channels
                    var blurredRows = 0
                    for y in 0..<height {
                        // Blur rows horizontally until the window below row y is complete.
                        while blurredRows <= min(height - 1, y + radius) {
                            FloatRows.load(
                                src + blurredRows * width * 4, width: width, channels: channels,
                                premultiply: image.hasAlpha, into: body)
                            for x in 0..<radius {
                                for c in 0..<channels {
                                    padded[x * channels + c] = body[c]
                                    body[rowCount + x * channels + c] = body[rowCount - channels + c]
                                }
                            }
                            horizontal(body, count: rowCount, channels: channels, weights: w,
                                       into: ring + (blurredRows % ringCount) * stride)
                            blurredRows += 1
                        }
                        for k in -radius...radius {
                            let row = min(height - 1, max(0, y + k))
                            taps[k + radius] = UnsafePointer(ring + (row % ringCount) * stride)
                        }
                        vertical(taps + radius, count: rowCount, radius: radius, weights: w, into: sum)
                        FloatRows.store(
                            sum, width: width, channels: channels, premultiplied: image.hasAlpha,
                            into: dst + y * width * 4)
                    }
                }
            }
        }
    }

    // MARK: - Passes

    /// `out[i] = w₀·in[i] + Σₖ wₖ·(in[i − k·channels] + in[i + k·channels])`, 16 at a time.
    /// `row` must be readable from `−radius·channels` to `count + radius·channels + 16`.
    @inline(__always)
    private static func horizontal(
        _ row: UnsafeMutablePointer<Float>, count: Int, channels: Int,
        weights w: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<Float>
    ) {
        let center = UnsafeRawPointer(row)
        let tapBytes = channels * MemoryLayout<Float>.size
        let radius = w.count - 1
        let w0 = w[0]
        var i = 0
        while i < count {
            let offset = i * MemoryLayout<Float>.size
            var acc = w0 * center.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            var k = 1
            while k <= radius {
                let left = center.loadUnaligned(fromByteOffset: offset - k * tapBytes, as: SIMD16<Float>.self)
                let right = center.loadUnaligned(fromByteOffset: offset + k * tapBytes, as: SIMD16<Float>.self)
                acc += w[k] * (left + right)
                k += 1
            }
            UnsafeMutableRawPointer(out).storeBytes(of: acc, toByteOffset: offset, as: SIMD16<Float>.self)
            i += 16
        }
    }

    /// `out[i] = w₀·row₀[i] + Σₖ wₖ·(row₋ₖ[i] + row₊ₖ[i])`, in sweeps over whole rows.
    /// `taps[k]` for `k` in `−radius…radius` are the rows around the output row.
    @inline(__always)
    private static func vertical(
        _ taps: UnsafeMutablePointer<UnsafePointer<Float>>, count: Int, radius: Int,
        weights w: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<Float>
    ) {
        let center = taps[0], w0 = w[0]
        for i in 0..<count { out[i] = w0 * center[i] }
        var k = 1
        while k + 1 <= radius {
            let wa = w[k], wb = w[k + 1]
            let a0 = taps[-k], a1 = taps[k], b0 = taps[-k - 1], b1 = taps[k + 1]
            for i in 0..<count { out[i] += wa * (a0[i] + a1[i]) + wb * (b0[i] + b1[i]) }
            k += 2
        }
        if k <= radius {
            let wa = w[k], a0 = taps[-k], a1 = taps[k]
            for i in 0..<count { out[i] += wa * (a0[i] + a1[i]) }
        }
    }
}
