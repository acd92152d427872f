// MARK: - PipelineThreads

/// Dedicated threads for the work that must not hold Swift's cooperative threads: decodes,
/// filters and encodes (CPU, milliseconds to seconds) and blocking reads (files, the disk
/// cache). Own threads rather than dispatch queues: libdispatch on Linux shares a small pool
/// (one thread per core) with every other user in the process, which can starve a pipeline.
///
/// Sources' `load` runs with ``io`` as its task executor preference, so a source that reads a
/// file synchronously inside `load` blocks one of these threads, not the cooperative pool.
final class PipelineThreads: Sendable {
    private let processing: ThreadPool
    private let blocking: ThreadPool
    private let coordination: ThreadPool
    /// The executor sources load on.
    let io: PoolTaskExecutor
    /// The executor the render and fetch jobs' driving tasks run on: they only take the lock and
    /// await, but on their own threads they progress even while the app's blocking work fills
    /// the cooperative pool. A job one of them starts or wakes runs next on the same thread.
    let jobs: PoolTaskExecutor
    /// The executor the decode, filter and encode jobs' driving tasks run on: the processing
    /// threads themselves. Work a processing thread hands on (its compute, the next stage it
    /// wakes) runs next on the same thread, so an unshared render goes from decode to encode
    /// on one thread, its pixels staying in that thread's caches and malloc arena.
    let stages: PoolTaskExecutor

    /// `processingThreads` should match the processing queue's limit (it never asks for more).
    ///
    /// `shared`: one pool of `processingThreads` threads runs everything (loads, jobs and
    /// processing), every hand-over next on the thread that made it, and a caller waiting with
    /// `BlockingWait` lends its thread to it (and counts as one of them): so one processing
    /// slot is one thread, as `batch --jobs 1` promises.
    init(processingThreads: Int, ioThreads: Int, shared: Bool = false) {
        processing = shared
            ? ThreadPool(name: "darkroom.work", count: processingThreads, keepsHandOversLocal: true, acceptsHost: true)
            : ThreadPool(name: "darkroom.proc", count: processingThreads, keepsHandOversLocal: true)
        blocking = shared ? processing : ThreadPool(name: "darkroom.io", count: ioThreads)
        coordination = shared ? processing : ThreadPool(name: "darkroom.jobs", count: 2, keepsHandOversLocal: true)
        io = PoolTaskExecutor(pool: blocking)
        jobs = PoolTaskExecutor(pool: coordination)
        stages = PoolTaskExecutor(pool: processing)
    }

    /// Lets the threads end once their work is done (when the pipeline's engine goes away).
    func stop() {
        processing.stop()
        blocking.stop()
        coordination.stop()
    }

    /// Runs CPU work on a processing thread — from a processing thread (a stage job's driving
    /// task), on that same thread, next.
    func compute<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            processing.submit { continuation.resume(with: Result(catching: work)) }
        }
    }

    /// Runs blocking I/O (the disk cache) on an I/O thread.
    func blockingIO<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            blocking.submit { continuation.resume(with: Result(catching: work)) }
        }
    }
}
