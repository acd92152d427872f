import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - MemoryPressureSubscription

/// A live wiring of a POSIX signal to a cache purge, from
/// ``AutoPurgingImageCache/purgeOnSignal(_:queue:onPurge:)``. Keep it as long as the wiring
/// should last: ``cancel()`` — or dropping the last reference — unwires it.
///
/// ```swift
/// let pressure = cache.purgeOnSignal(SIGUSR2)   // `kill -USR2 <pid>` now empties the cache
/// pressure.cancel()
/// ```
public final class MemoryPressureSubscription: Sendable {
    /// The signal number listened to.
    public let signal: Int32
    private let source: Mutex<(any DispatchSourceSignal)?>

    init(signal: Int32, source: sending any DispatchSourceSignal) {
        self.signal = signal
        self.source = Mutex(source)
    }

    /// Stops purging on the signal. The signal stays ignored (its default action is not
    /// restored: another part of the program may still listen to it). Idempotent.
    public func cancel() {
        source.withLock { source in
            source?.cancel()
            source = nil
        }
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool { source.withLock { $0 == nil } }

    deinit {
        cancel()
    }
}

// MARK: - Purging on a signal

extension AutoPurgingImageCache {
    /// Empties the cache each time the process receives `signal` — a way for an operator or
    /// a supervisor to relieve memory pressure on a server (`kill -USR2 <pid>`).
    ///
    /// If the signal still has its default action (for `SIGUSR2`: terminate), it is set to
    /// "ignore" before listening, as Dispatch signal sources require; a handler already
    /// installed is left alone. The signal then reaches the returned subscription through a
    /// `DispatchSourceSignal` on `queue`. Several caches may listen to the same signal. Send
    /// the signal to the process (`kill`), not to one thread (`raise` from a Dispatch or
    /// Swift-concurrency worker thread, which block signals, leaves it pending there). The
    /// cache is held weakly: the subscription does not keep it alive.
    ///
    /// ```swift
    /// let pressure = cache.purgeOnSignal(SIGUSR2) { removed in log("purged \(removed) images") }
    /// // … later
    /// pressure.cancel()
    /// ```
    /// - Parameters:
    ///   - number: the signal number, e.g. `SIGUSR2`.
    ///   - queue: where the purge runs.
    ///   - onPurge: called after each purge with the number of images removed.
    /// - Returns: the subscription; cancelling or releasing it stops the purging.
    public func purgeOnSignal(
        _ number: Int32,
        queue: DispatchQueue = .global(qos: .utility),
        onPurge: (@Sendable (_ removedImages: Int) -> Void)? = nil
    ) -> MemoryPressureSubscription {
        // Ignore the signal only if it has its default action: a handler already there (Dispatch's
        // own, from an earlier subscription, or the program's) stays. Swapping twice leaves a
        // moment of "ignore", which can only drop a signal that arrives within it.
        let previous = signal(number, SIG_IGN)
        if previous != nil { signal(number, previous) }  // nil is SIG_DFL
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            let removed = self.removeAllImagesCounting()
            onPurge?(removed)
        }
        source.resume()
        return MemoryPressureSubscription(signal: number, source: source)
    }
}
