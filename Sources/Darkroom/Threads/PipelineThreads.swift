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
    /// The executor the stage jobs' driving tasks run on: they only take the lock and await, but
    /// on their own threads they progress even while the app's blocking work fills the
    /// cooperative pool.
    let jobs: PoolTaskExecutor

    /// `processingThreads` should match the processing queue's limit (it never asks for more).
    init(processingThreads: Int, ioThreads: Int) {
        processing = ThreadPool(name: "darkroom.proc", count: processingThreads)
        blocking = ThreadPool(name: "darkroom.io", count: ioThreads)
        coordination = ThreadPool(name: "darkroom.jobs", count: 2)
        io = PoolTaskExecutor(pool: blocking)
        jobs = PoolTaskExecutor(pool: coordination)
    }

    /// Lets the threads end once their work is done (when the pipeline's engine goes away).
    func stop() {
        processing.stop()
        blocking.stop()
        coordination.stop()
    }

    /// Runs CPU work on a processing thread.
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

// MARK: - ThreadPool

/// A fixed set of threads running submitted closures in order, until ``stop()``. Guarded by its
/// condition lock, hence `@unchecked Sendable`.
final class ThreadPool: @unchecked Sendable {
    private let condition = ConditionLock()
    /// Submitted closures; a taken one is set to `nil` at once, since its captures (decoded
    /// images) must not outlive the work: keeping the last 64 run closures held up to 64
    /// images (~390 MB each at 100 megapixels) after their requests had ended.
    private var work: [(@Sendable () -> Void)?] = []
    private var head = 0
    private var stopping = false
    /// How many threads started (set in `init`, read-only after); with none (the process is
    /// out of threads) work runs inline.
    private var threadCount = 0

    /// Starts `count` threads named `name.0`, `name.1`, … (Linux keeps 15 bytes of a name).
    init(name: String, count: Int) {
        for index in 0..<max(1, count) where ThreadStart.startNamed("\(name).\(index)", run) {
            threadCount += 1
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        guard threadCount > 0 else { return job() }
        condition.lock()
        work.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Threads end once the submitted work is done.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while head == work.count, !stopping { condition.wait() }
            if head == work.count {
                condition.unlock()
                return
            }
            let job = work[head]
            work[head] = nil
            head += 1
            if head > 64, head * 2 > work.count {
                work.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job?()
        }
    }
}

// MARK: - PoolTaskExecutor

/// A task executor running jobs on a ``ThreadPool`` (threads outside the cooperative pool).
final class PoolTaskExecutor: TaskExecutor, Sendable {
    private let pool: ThreadPool

    init(pool: ThreadPool) {
        self.pool = pool
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
