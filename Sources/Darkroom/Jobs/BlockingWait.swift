import Dispatch
import Synchronization

// MARK: - BlockingWait

/// Runs async work to completion from synchronous code — a batch worker thread, a command's
/// main thread — by blocking the calling thread until the work ends.
///
/// Only for threads outside Swift concurrency's cooperative pool: blocking one of those could
/// starve the very tasks being waited for. The work itself runs as a detached task.
///
/// ```swift
/// let responses = try BlockingWait.run { try await pipeline.images(for: url, variants: ["thumbnail"]) }
/// ```
public enum BlockingWait {
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
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
