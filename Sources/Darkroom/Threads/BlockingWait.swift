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
    public static func run<Value: Sendable>(
        on executor: (any TaskExecutor)? = nil, _ work: @escaping @Sendable () async throws -> Value
    ) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached(executorPreference: executor) {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}
