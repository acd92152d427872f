import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - RowParallelism

/// How a pass splits its rows across threads.
///
/// Each output row is computed by the same code whatever the banding, so results do
/// not depend on the number of threads (the tests check this).
struct RowParallelism: Sendable {
    /// Most threads to use.
    let threads: Int
    /// Work units (pixel-taps or pixels) below which a pass stays on the calling thread.
    let minimumWork: Int

    /// Every online processor (or ``Resampler/maximumThreads``, when set), for passes of at
    /// least about half a millisecond.
    static var automatic: RowParallelism {
        let limit = Resampler.maximumThreads
        return RowParallelism(threads: limit > 0 ? min(limit, processorCount) : processorCount, minimumWork: 1 << 20)
    }
    /// Everything on the calling thread.
    static let serial = RowParallelism(threads: 1, minimumWork: .max)

    /// Online processors, read once.
    static let processorCount: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// Runs `body` over `0 ..< rowCount` in contiguous bands of whole multiples of
    /// `granularity` rows (but the last), on several threads when `work` is large enough
    /// to pay for them. `body` must write only the rows it is given.
    func forEachBand(rowCount: Int, work: Int, granularity: Int = 4, _ body: @Sendable (Range<Int>) -> Void) {
        guard threads > 1, work >= minimumWork, rowCount >= 2 * granularity else {
            body(0..<rowCount)
            return
        }
        // A few bands per thread, so a thread slowed by other work does not hold up the rest.
        let bands = min(threads * 3, rowCount / granularity)
        let rowsPerBand = (rowCount / bands + granularity - 1) / granularity * granularity
        let bandCount = (rowCount + rowsPerBand - 1) / rowsPerBand
        DispatchQueue.concurrentPerform(iterations: bandCount) { band in
            let start = band * rowsPerBand
            body(start..<min(rowCount, start + rowsPerBand))
        }
    }
}
