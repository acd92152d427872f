import Dispatch

// MARK: - PipelineThreads

/// Dedicated threads for the work that must not hold Swift's cooperative threads: decodes,
/// filters and encodes (CPU, milliseconds to seconds) and blocking reads (files, the disk
/// cache). Concurrency is limited by the pipeline's ``WorkQueue``s, not here.
///
/// Sources' `load` runs with ``io`` as its task executor preference, so a source that reads a
/// file synchronously inside `load` blocks one of these threads, not the cooperative pool.
final class PipelineThreads: Sendable {
    private let processing = DispatchQueue(label: "darkroom.pipeline.processing", attributes: .concurrent)
    private let blocking = DispatchQueue(label: "darkroom.pipeline.io", attributes: .concurrent)
    /// The executor sources load on.
    let io: DispatchTaskExecutor

    init() {
        io = DispatchTaskExecutor(queue: blocking)
    }

    /// Runs CPU work on a processing thread.
    func compute<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            processing.async { continuation.resume(with: Result(catching: work)) }
        }
    }

    /// Runs blocking I/O (the disk cache) on an I/O thread.
    func blockingIO<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            blocking.async { continuation.resume(with: Result(catching: work)) }
        }
    }
}

// MARK: - DispatchTaskExecutor

/// A task executor running jobs on a concurrent dispatch queue (threads outside the
/// cooperative pool).
final class DispatchTaskExecutor: TaskExecutor, Sendable {
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
