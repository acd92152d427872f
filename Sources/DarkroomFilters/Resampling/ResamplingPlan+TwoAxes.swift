import DarkroomCore

// MARK: - Two-axis resizes, streamed
//
// A two-axis resize filters one axis into a `Float` intermediate and the other axis out of
// it. The whole intermediate would be 16 bytes per pixel of a full-height or full-width
// image (23.6 MB to thumbnail a 5120×2880 photo, faulted in page by page and thrown away);
// instead each band of output rows keeps only the intermediate rows it is using:
//
// - vertical first: a few intermediate rows at a time, each filtered along x as soon as it
//   is made;
// - horizontal first: a sliding window of intermediate rows, as many as the vertical taps
//   of the band's rows need, each made once.
//
// Every output row is computed from the same intermediate values by the same code as with a
// whole intermediate, so the result is identical (the tests check this against full-buffer
// passes); only the memory touched changes.

extension ResamplingPlan {
    /// Output rows a vertical-first band makes per step: the vertical pass fills this many
    /// intermediate rows (`sourceSize.width` wide), the horizontal pass empties them. A
    /// multiple of 4, the horizontal pass's row group.
    static let streamedRows = 8

    /// Fixed-point vertical pass into a few `Float` rows at a time (``streamedRows``), each
    /// batch filtered along x into bytes at once.
    func verticalThenHorizontal<Source: ResamplingSource, Output: FloatPixelOutput>(
        _ source: UnsafePointer<Source>, _ destination: UnsafeMutablePointer<UInt8>,
        _ vertical: AxisWeights, _ horizontal: AxisWeights, output: Output.Type
    ) {
        let floatWeights = horizontal.floatWeights(scaledBy: Self.intermediateScale(of: Source.self))
        let width = sourceSize.width, outputRowLength = destinationSize.width * 4
        let rows = destinationSize.height
        nonisolated(unsafe) let source = source, destination = destination
        parallelism.forEachBand(rowCount: rows, work: width * vertical.totalTaps + rows * horizontal.totalTaps) { band in
            let intermediate = UnsafeMutablePointer<Float>.allocate(capacity: Self.streamedRows * width * 4)
            defer { intermediate.deallocate() }
            var y = band.lowerBound
            while y < band.upperBound {
                let end = min(y + Self.streamedRows, band.upperBound)
                resampleVertically(
                    source: source, destination: intermediate, width: width, weights: vertical, rows: y..<end,
                    rounding: .unscaled, destinationFirstRow: y)
                resampleHorizontallyFromFloat(
                    source: intermediate, destination: destination + y * outputRowLength, weights: horizontal,
                    floatWeights: floatWeights, rows: 0..<(end - y), output: Output.self)
                y = end
            }
        }
    }

    /// Fixed-point horizontal pass (premultiplying on the way when asked) into a sliding
    /// window of `Float` rows (`destinationSize.width` wide), and the `Float` vertical pass
    /// out of it into bytes.
    func horizontalThenVertical<Output: FloatPixelOutput>(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
        _ horizontal: AxisWeights, _ vertical: AxisWeights, premultiplying: Bool, output: Output.Type
    ) {
        let floatWeights = vertical.floatWeights(
            scaledBy: premultiplying ? Self.intermediateScale(of: Int16.self) : Self.intermediateScale(of: UInt8.self))
        let width = destinationSize.width, rowLength = width * 4
        let sourceRowLength = sourceSize.width * 4
        nonisolated(unsafe) let source = source, destination = destination
        // Bands of at least 16 rows: each band makes the window rows it needs, and the rows
        // two bands share are made twice.
        let work = sourceSize.height * horizontal.totalTaps + width * vertical.totalTaps
        parallelism.forEachBand(rowCount: destinationSize.height, work: work, granularity: 16) { band in
            var window = IntermediateWindow(vertical: vertical, outputRows: band, rowLength: rowLength)
            defer { window.deallocate() }
            for y in band {
                window.makeRows(for: y) { rows, into in
                    // Intermediate rows `rows` into `into`: the same passes as a whole image's.
                    let first = source + rows.lowerBound * sourceRowLength
                    if premultiplying {
                        resampleHorizontallyPremultiplying(
                            source: first, destination: into, weights: horizontal, rows: 0..<rows.count,
                            rounding: .unscaled)
                    } else {
                        resampleHorizontally(
                            source: first, destination: into, weights: horizontal, rows: 0..<rows.count,
                            rounding: .unscaled)
                    }
                }
                resampleVerticallyFromFloat(
                    source: window.rows, destination: destination, width: width, weights: vertical,
                    floatWeights: floatWeights, rows: y..<(y + 1), output: Output.self, sourceFirstRow: window.firstRow)
            }
        }
    }

    /// What turns a `Float` intermediate made from `Source` values, times a second set
    /// of weights, back into 0…255 units: `2^-(source fraction bits + 2 · weight bits)`.
    static func intermediateScale<Source: ResamplingSource>(of _: Source.Type) -> Float {
        1 / Float(1 << (Source.fractionBits + 2 * AxisWeights.fractionBits))
    }
}

// MARK: - IntermediateWindow

/// The intermediate rows a band of vertical-pass outputs is reading: rows
/// `firstRow ..< firstRow + filled` of the whole intermediate, in a buffer sized for the
/// widest reach of the band's outputs (plus as much again, so that sliding is rare; at most
/// all the rows the band reads).
struct IntermediateWindow {
    /// The window's memory: row `r` of the intermediate is at row `r - firstRow`.
    private(set) var rows: UnsafeMutablePointer<Float>
    /// The intermediate row held at the top of the window.
    private(set) var firstRow: Int
    /// Rows held.
    private var filled = 0
    private let capacity: Int
    private let rowLength: Int
    /// For each output row of the band (from its first), the lowest intermediate row it or
    /// any later output row of the band reads: what the window must keep.
    private let lowestStillNeeded: [Int]
    private let starts: [Int32], counts: [Int32]
    private let bandStart: Int
    /// One past the last intermediate row the band reads: rows are made no further.
    private let lastNeeded: Int

    init(vertical: AxisWeights, outputRows band: Range<Int>, rowLength: Int) {
        starts = vertical.starts
        counts = vertical.counts
        bandStart = band.lowerBound
        self.rowLength = rowLength
        // Trimmed taps make starts almost, not exactly, non-decreasing: keep a running minimum.
        var lowest = [Int](repeating: 0, count: band.count)
        var running = Int.max, reach = 1, end = 0
        for y in band.reversed() {
            running = min(running, Int(vertical.starts[y]))
            lowest[y - band.lowerBound] = running
        }
        for y in band {
            let rowEnd = Int(vertical.starts[y] + vertical.counts[y])
            end = max(end, rowEnd)
            reach = max(reach, rowEnd - lowest[y - band.lowerBound])
        }
        lowestStillNeeded = lowest
        lastNeeded = end
        firstRow = lowest.first ?? 0
        // Room to slide seldom, but never more than every row the band reads (a shrink to one
        // row reads them all once).
        capacity = min(2 * reach + 8, max(reach, end - firstRow))
        rows = UnsafeMutablePointer<Float>.allocate(capacity: capacity * rowLength)
    }

    /// Makes sure the intermediate rows output row `y` reads are in the window: slides out the
    /// rows no output from `y` on reads, and has `make(range, destination)` fill the missing
    /// rows (as many as fit, so that it is called seldom).
    mutating func makeRows(
        for y: Int, _ make: (Range<Int>, UnsafeMutablePointer<Float>) -> Void
    ) {
        let end = Int(starts[y] + counts[y])
        guard end > firstRow + filled else { return }
        let keepFrom = lowestStillNeeded[y - bandStart]
        if end - firstRow > capacity {
            // Slide: rows before `keepFrom` are read by no output from `y` on.
            let kept = max(0, firstRow + filled - keepFrom)
            if kept > 0 {
                UnsafeMutableRawPointer(rows).copyMemory(
                    from: rows + (keepFrom - firstRow) * rowLength,
                    byteCount: kept * rowLength * MemoryLayout<Float>.stride)
            }
            firstRow = keepFrom
            filled = kept
        }
        let from = firstRow + filled
        let to = min(lastNeeded, firstRow + capacity)
        make(from..<to, rows + filled * rowLength)
        filled = to - firstRow
    }

    func deallocate() { rows.deallocate() }
}
