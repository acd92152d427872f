// MARK: - Suspension

/// A one-shot wait for a value that someone else provides: a job's result, a queue slot.
/// Resolved exactly once — by the provider or by the waiting task's cancellation, whichever
/// comes first — and safe whichever of "resolve" and "start waiting" happens first.
///
/// State is guarded by the pipeline's lock (every method that touches it takes the lock or
/// is called under it), hence `@unchecked Sendable`.
final class Suspension<Value: Sendable>: @unchecked Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Value, any Error>)
        case resolved(Result<Value, any Error>)
        case consumed
    }

    private var state = State.idle

    /// `true` once a result (or cancellation) has arrived. Call under the lock.
    var isResolved: Bool {
        if case .idle = state { return false }
        if case .waiting = state { return false }
        return true
    }

    /// Provides the result; the waiter resumes after the lock is released. Later calls are
    /// ignored. Call under the lock.
    func resolve(_ result: Result<Value, any Error>, _ effects: inout PipelineEffects) {
        switch state {
        case .idle:
            state = .resolved(result)
        case let .waiting(continuation):
            state = .consumed
            effects.later { continuation.resume(with: result) }
        case .resolved, .consumed:
            break
        }
    }

    /// Waits for the result. When the calling task is cancelled first, `onCancel` runs under
    /// the lock (to withdraw whatever was asked for) and the wait ends with `CancellationError`.
    func wait(lock: PipelineLock, onCancel: @escaping @Sendable (inout PipelineEffects) -> Void) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                lock.run { effects in
                    switch state {
                    case .idle:
                        state = .waiting(continuation)
                    case let .resolved(result):
                        state = .consumed
                        effects.later { continuation.resume(with: result) }
                    case .waiting, .consumed:
                        preconditionFailure("a Suspension is waited on once")
                    }
                }
            }
        } onCancel: {
            lock.run { effects in
                guard !self.isResolved else { return }
                onCancel(&effects)
                self.resolve(.failure(CancellationError()), &effects)
            }
        }
    }
}
