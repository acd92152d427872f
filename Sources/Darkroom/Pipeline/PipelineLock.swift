// MARK: - PipelineLock

/// The one lock of a pipeline. Every mutable field of its jobs, sessions, queues and tasks is
/// read and written only while it is held, which is why those classes are `@unchecked Sendable`.
///
/// Nothing that can re-enter the pipeline (resuming a continuation, cancelling a Swift task —
/// whose cancellation handlers take this lock) runs under it: such actions are collected in
/// ``PipelineEffects`` and run right after the lock is released.
final class PipelineLock: @unchecked Sendable {  // ConditionLock is thread-safe; the class adds no state
    private let lock = ConditionLock()

    /// Runs `body` under the lock, then the effects it collected.
    @discardableResult
    func run<T>(_ body: (inout PipelineEffects) throws -> T) rethrows -> T {
        var effects = PipelineEffects()
        lock.lock()
        let result: T
        do {
            result = try body(&effects)
        } catch {
            lock.unlock()
            effects.run()
            throw error
        }
        lock.unlock()
        effects.run()
        return result
    }
}

// MARK: - PipelineEffects

/// Actions collected under the ``PipelineLock`` and run after it is released, in order.
struct PipelineEffects {
    private var actions: [() -> Void] = []

    mutating func later(_ action: @escaping () -> Void) { actions.append(action) }

    fileprivate func run() {
        for action in actions { action() }
    }
}
