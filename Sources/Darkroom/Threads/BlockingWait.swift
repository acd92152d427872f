import Dispatch
import Synchronization

// MARK: - BlockingWait

/// Runs async work to completion from synchronous code — a batch worker thread, a command's
/// main thread — by blocking the calling thread until the work ends.
///
/// From threads outside Swift concurrency's cooperative pool the work may run anywhere. A
/// caller that may be on a cooperative thread passes an `executor` of its own threads: the
/// work then runs there and never needs the (possibly blocked) cooperative pool.
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
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        // The task holds the work through a box it empties: the work (and what it captured, a
        // cache whose last reference flushes counters on deinit) is released before the caller
        // is woken, not whenever the finished task is torn down.
        let box = Mutex<(@Sendable () async throws -> Value)?>(work)
        Task.detached(executorPreference: executor) {
            let result = await Self.runOnce(box)
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
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
