import Foundation

// MARK: - Blocking work off the cooperative pool

/// Runs blocking work (waiting for a child process, starting a server) on a thread of its own
/// and awaits it, so that it never holds one of the few threads of Swift's cooperative pool —
/// on a 2-core machine a test blocking there for minutes stalls every other running test.
///
/// ```swift
/// let result = try await onOwnThread { try runSwiftBuild() }
/// ```
public func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

// MARK: - Async work off the cooperative pool

/// A task executor running its jobs in order on a serial dispatch queue, whose thread is not
/// one of the cooperative pool's: a task preferring it starts and resumes promptly even while
/// other tests keep every pool thread busy.
public final class SerialQueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Runs `body` (and the child tasks it creates) on a ``SerialQueueTaskExecutor``, for tests that
/// measure how long something takes or must react within a deadline. `body` gets the executor,
/// to start unstructured tasks on it with `Task(executorPreference:)`.
///
/// ```swift
/// try await offThePool { executor in
///     let started = ContinuousClock.now
///     _ = try? await source.load(url)
///     #expect(ContinuousClock.now - started < .seconds(4))
/// }
/// ```
public func offThePool<Value>(
    _ body: (SerialQueueTaskExecutor) async throws -> Value
) async rethrows -> Value {
    let executor = SerialQueueTaskExecutor(label: "darkroom.tests.off-the-pool")
    return try await withTaskExecutorPreference(executor) { try await body(executor) }
}
