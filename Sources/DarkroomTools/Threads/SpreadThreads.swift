import CThreadPlacement
import Darkroom
import Glibc

// MARK: - SpreadThreads

/// Runs work on new threads that start on a different CPU from the calling thread.
///
/// A batch of thumbnails is over in tens of milliseconds, so a worker that waits a few of them
/// before it first runs costs a visible share of the batch. On Linux a new or woken thread is
/// queued where the scheduler thinks best, and in a KVM guest that is often the CPU of the
/// thread that started it, already busy, even with the other CPU idle (an idle vCPU reads as
/// "preempted"); it then waits for the periodic load balancer to move it, up to one
/// scheduler tick (4 ms at HZ=250). Measured on `darkroom batch --jobs 2`: the second worker
/// started 1–4.5 ms after the first in most runs under `perf sched`, and in 3 of 15 without it.
///
/// So each new thread is created allowed only on the next of the caller's CPUs (the kernel
/// has to start it there), and its first act is to take back the caller's whole CPU set, so
/// nothing stays pinned. With one CPU it is an ordinary thread.
///
/// ```swift
/// SpreadThreads.run(lanes: 2) { lane in work(lane) }   // lane 0 on this thread
/// SpreadThreads.detach { prefetch() }
/// ```
public enum SpreadThreads {
    /// Runs `body(lane)` for every lane in `0..<lanes` at once, lane 0 on the calling thread
    /// and each other lane on a new thread, and returns when all have returned. A lane whose
    /// thread cannot be created (the process is out of threads) runs on the calling thread
    /// after lane 0, so every lane runs exactly once.
    public static func run(lanes: Int, _ body: @Sendable (Int) -> Void) {
        guard lanes > 1 else {
            if lanes == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            var started: [pthread_t] = []
            var leftOver: [Int] = []
            for lane in 1..<lanes {
                if let thread = ThreadStart.spawn(offset: lane, detached: false, { body(lane) }) {
                    started.append(thread)
                } else {
                    leftOver.append(lane)
                }
            }
            body(0)
            for lane in leftOver { body(lane) }
            for thread in started { _ = cthread_join(thread) }
        }
    }

    /// Starts `body` on a new detached thread placed on another CPU than the caller's, and
    /// returns at once; runs `body` on the calling thread when no thread can be created.
    public static func detach(_ body: @escaping @Sendable () -> Void) {
        if ThreadStart.spawn(offset: 1, detached: true, body) == nil { body() }
    }

    /// How many CPUs the calling thread may run on (its affinity mask; at least 1).
    public static var allowedCPUCount: Int { Int(cthread_allowed_cpu_count()) }

    // MARK: - Placement record

    /// Where a spread thread was started, as seen from inside it.
    struct Placement: Equatable {
        /// The CPU of the thread that spawned it, the CPU it was created on, and the CPU it
        /// first ran on.
        var spawnedFrom: Int, target: Int, firstRanOn: Int
    }

    /// The calling thread's placement; `nil` on a thread that was not placed (the caller's
    /// own thread, one allowed CPU, or a thread not started here).
    static var currentPlacement: Placement? {
        let record = cthread_current_placement()
        guard record.target >= 0 else { return nil }
        return Placement(
            spawnedFrom: Int(record.spawned_from), target: Int(record.target), firstRanOn: Int(record.first_ran_on))
    }
}
