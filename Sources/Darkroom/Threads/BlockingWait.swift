import Dispatch
import Synchronization

// MARK: - BlockingWait

/// Runs async work to completion from synchronous code — a batch worker thread, a command's
/// main thread — by blocking the calling thread until the work ends.
///
/// From threads outside Swift concurrency's cooperative pool the work may run anywhere. A
/// caller that may be on a cooperative thread passes an `executor` of its own threads: the
/// work then runs there and never needs the (possibly blocked) cooperative pool. The executor
/// of a pipeline with ``ImagePipeline/Threading/shared`` threads takes the waiting thread as
/// one of its own while the work runs, so the caller does the work instead of only sleeping.
///
/// ```swift
/// let responses = try BlockingWait.run { try await pipeline.images(for: url, variants: ["thumbnail"]) }
/// ```
public enum BlockingWait {
    /// Runs `work` in a detached task (on `executor` when given) and blocks the calling thread
    /// until it ends: returns its value or rethrows its error.
    public static func run<Value: Sendable>(
        on executor: (any TaskExecutor)? = nil, _ work: @escaping @Sendable () async throws -> Value
    ) throws -> Value {
        // The task holds the work through a box it empties: the work (and what it captured, a
        // cache whose last reference flushes counters on deinit) is released before the caller
        // is woken, not whenever the finished task is torn down.
        let state = WaitState(work)
        let launch: @Sendable (_ finished: @escaping @Sendable () -> Void) -> Void = { finished in
            Task.detached(executorPreference: executor) {
                let result = await Self.runOnce(state.work)
                state.outcome.withLock { $0 = result }
                finished()
            }
        }
        // A pool that takes the waiting thread runs the work on it too (a batch's main thread).
        if let pool = (executor as? PoolTaskExecutor)?.pool, pool.host(launch) {
            return try state.outcome.withLock { $0! }.get()
        }
        let done = DispatchSemaphore(value: 0)
        // From a pool thread, the work must not wait in this (blocked) thread's hand-over place.
        ThreadPool.submittingFromOutside { launch { done.signal() } }
        done.wait()
        return try state.outcome.withLock { $0! }.get()
    }

    /// Takes the work out of `box` and runs it; the work is released when this returns.
    private static func runOnce<Value: Sendable>(
        _ box: borrowing Mutex<(@Sendable () async throws -> Value)?>
    ) async -> Result<Value, any Error> {
        guard let work = box.withLock({ slot in
            defer { slot = nil }
            return slot
        }) else { return .failure(CancellationError()) }
        do {
            return .success(try await work())
        } catch {
            return .failure(error)
        }
    }
}

// MARK: - WaitState

/// One wait's work (taken out when it starts) and its outcome.
private final class WaitState<Value: Sendable>: Sendable {
    let work: Mutex<(@Sendable () async throws -> Value)?>
    let outcome = Mutex<Result<Value, any Error>?>(nil)

    init(_ work: @escaping @Sendable () async throws -> Value) {
        self.work = Mutex(work)
    }
}
