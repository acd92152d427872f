import CThreadPlacement
import Glibc

// MARK: - ThreadStart

/// Starts threads of the process's own, through C (`cthread_spawn`): the pipeline's named
/// service threads, and the CPU-spread workers of batch jobs (`SpreadThreads`, in the tools).
///
/// ```swift
/// _ = ThreadStart.startNamed("darkroom.io.0") { serve() }
/// ```
package enum ThreadStart {
    /// Starts `body` on a new detached thread named `name` (Linux keeps its first 15 bytes);
    /// false when no thread can be created. For long-lived service threads such as the
    /// pipeline's. With `awayFromCaller` it is created on the next of the caller's CPUs and
    /// then allowed on all of them, as `SpreadThreads` does: a thread started because the
    /// others are busy should not first queue behind the caller.
    package static func startNamed(_ name: String, awayFromCaller: Bool = false, _ body: @escaping @Sendable () -> Void) -> Bool {
        spawn(offset: awayFromCaller ? 1 : 0, detached: true) {
            _ = cthread_set_name(pthread_self(), name)
            body()
        } != nil
    }

    /// Starts `body` on a new thread created on the `offset`-th next of the caller's CPUs (0:
    /// no placement), joinable unless `detached`; `nil` when no thread can be created.
    package static func spawn(offset: Int, detached: Bool, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(Start(body)).toOpaque()
        var thread = pthread_t()
        let status = cthread_spawn(&thread, { raw in
            guard let raw else { return }
            Unmanaged<Start>.fromOpaque(raw).takeRetainedValue().body()
        }, context, Int32(offset), detached ? 1 : 0)
        guard status == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// The closure a thread runs, passed through C as a retained pointer.
    private final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
