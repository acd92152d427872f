#if canImport(Glibc)
import Glibc
#endif

// MARK: - ThreadPool

/// Up to a fixed number of threads running submitted closures in order, until ``stop()``.
/// Guarded by its lock, hence `@unchecked Sendable`.
///
/// Threads start when work arrives and none is idle, so a command that needs two starts two.
/// Each thread waits on its own condition, and work wakes the thread that went idle last (its
/// caches are the warmest).
///
/// In a pool that keeps hand-overs local, work submitted *by one of its threads* runs on that
/// thread as soon as the work in hand ends ("run next", as in Go's scheduler), ahead of the
/// shared queue, instead of waking another thread. When the place is taken, its previous
/// occupant moves to the shared queue, so a thread never holds back more than one closure.
final class ThreadPool: @unchecked Sendable {
    private let lock = ConditionLock()
    /// Submitted closures; a taken one is set to `nil` at once, since its captures (decoded
    /// images) must not outlive the work: keeping the last 64 run closures held up to 64
    /// images (~390 MB each at 100 megapixels) after their requests had ended.
    private var work: [(@Sendable () -> Void)?] = []
    private var head = 0
    /// Each thread's "run next" closure, and the condition it waits on.
    private var runNext: [(@Sendable () -> Void)?]
    private let wakeUps: [LockCondition]
    /// Idle threads, the most recently idle last (it is woken first: its caches are warmest).
    private var idle: [Int] = []
    private var isIdle: [Bool]
    private let keepsHandOversLocal: Bool
    private var stopping = false
    private let name: String
    /// The most threads the pool starts.
    private let capacity: Int
    /// How many threads started.
    private var threadCount = 0
    /// Whether a waiting caller may lend its thread (``host(_:)``).
    private let acceptsHost: Bool
    /// The slot of a lent thread: after the pool's own.
    private var hostIndex: Int { capacity }
    /// Whether a thread is lent now, and whether it has been asked to leave.
    private var hosting = false
    private var hostLeaving = false

    /// A pool of up to `count` threads named `name.0`, `name.1`, … (Linux keeps 15 bytes of a
    /// name). With `keepsHandOversLocal`, work a pool thread submits runs next on that thread.
    /// With `acceptsHost`, a caller waiting for the pool's work may lend its thread to it
    /// (``host(_:)``), which then counts as one of the `count`.
    init(name: String, count: Int, keepsHandOversLocal: Bool = false, acceptsHost: Bool = false) {
        self.name = name
        self.capacity = max(1, count)
        self.keepsHandOversLocal = keepsHandOversLocal
        self.acceptsHost = acceptsHost
        runNext = Array(repeating: nil, count: capacity + 1)
        isIdle = Array(repeating: false, count: capacity + 1)
        wakeUps = (0...capacity).map { _ in LockCondition() }
    }

    /// How many threads the pool has started so far.
    var startedThreadCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return threadCount
    }

    /// The index of the pool thread calling, or `nil` from any other thread.
    var currentThreadIndex: Int? { PoolThreadMark.index(in: self) }

    // MARK: - Submitting

    /// Queues `job`. It runs inline when the pool has no thread and none can be started (the
    /// process is out of threads).
    func submit(_ job: @escaping @Sendable () -> Void) {
        lock.lock()
        if keepsHandOversLocal, let index = PoolThreadMark.index(in: self) {
            if let previous = runNext[index] { share(previous) }
            runNext[index] = job
            lock.unlock()
            return
        }
        let running = share(job)
        lock.unlock()
        if !running, let inline = takeWorkIfThreadless() { inline() }
    }

    /// Queues `job` for any thread: wakes an idle one, or starts one when none is idle and the
    /// pool may grow. False when the pool has no thread and none could be started. Under the lock.
    @discardableResult
    private func share(_ job: @escaping @Sendable () -> Void) -> Bool {
        work.append(job)
        return dispatchShared()
    }

    /// Wakes an idle thread for the shared queue, or starts one when none is idle and the pool
    /// may grow. Under the lock.
    @discardableResult
    private func dispatchShared() -> Bool {
        if let index = idle.last {
            wake(index)
            return true
        }
        guard threadCount + (hosting ? 1 : 0) < capacity, !stopping else { return threadCount > 0 || hosting }
        let index = threadCount
        // Started because no thread is free: on another CPU than the busy caller's (in a KVM
        // guest a new thread otherwise often waits for the caller's CPU; see SpreadThreads).
        if ThreadStart.startNamed("\(name).\(index)", awayFromCaller: true, { [self] in run(index) }) {
            threadCount += 1
            return true
        }
        return threadCount > 0
    }

    /// Marks idle thread `index` busy and wakes it. Under the lock.
    private func wake(_ index: Int) {
        markBusy(index)
        wakeUps[index].signal()
    }

    private func markBusy(_ index: Int) {
        guard isIdle[index] else { return }
        isIdle[index] = false
        idle.removeAll { $0 == index }
    }

    /// With no thread to run it, the oldest queued closure (run by the caller).
    private func takeWorkIfThreadless() -> (@Sendable () -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        guard threadCount == 0, head < work.count else { return nil }
        let job = work[head]
        work[head] = nil
        head += 1
        return job
    }

    /// Threads end once the submitted work is done.
    func stop() {
        lock.lock()
        stopping = true
        for condition in wakeUps { condition.signal() }
        lock.unlock()
    }

    // MARK: - Lending a thread

    /// Lends the calling thread to the pool while it waits: `start` is called on it as one of
    /// the pool's threads (so the work it submits runs next here, not on a woken thread), then
    /// the thread runs the pool's work until the closure `start` was given is called (from any
    /// thread). False, with nothing run, when the pool takes no host or has one already: then
    /// the caller waits as it otherwise would.
    ///
    /// A batch's main thread, which would only sleep until its work ends, so does the work
    /// itself, and the pool starts one thread fewer.
    func host(_ start: (_ leave: @escaping @Sendable () -> Void) -> Void) -> Bool {
        // One of the pool's own threads keeps its place (and waits as any caller would).
        guard PoolThreadMark.index(in: self) == nil else { return false }
        lock.lock()
        guard acceptsHost, !hosting, !stopping else {
            lock.unlock()
            return false
        }
        hosting = true
        hostLeaving = false
        lock.unlock()
        let previous = PoolThreadMark.current
        let mark = PoolThreadMark(pool: self, index: hostIndex)
        mark.install()
        start { [self] in
            lock.lock()
            hostLeaving = true
            markBusy(hostIndex)  // so no work is given to it any more
            wakeUps[hostIndex].signal()
            lock.unlock()
        }
        lock.lock()
        runJobs(hostIndex)
        markBusy(hostIndex)
        hosting = false
        // Leaving: what waits for it is at most its "run next" job and the one shared job it
        // may have been woken for just now; each gets a wake-up or a start of its own.
        if let next = runNext[hostIndex] {
            runNext[hostIndex] = nil
            work.append(next)
        }
        for _ in 0..<min(work.count - head, 2) { dispatchShared() }
        lock.unlock()
        PoolThreadMark.restore(previous)
        withExtendedLifetime(mark) {}
        return true
    }

    /// Runs `body` with the calling thread unmarked, so what it submits to any pool goes to
    /// that pool's shared queue, not to this thread's "run next" place: for a pool thread about
    /// to block until that work is done.
    static func submittingFromOutside<T>(_ body: () throws -> T) rethrows -> T {
        let previous = PoolThreadMark.current
        PoolThreadMark.restore(nil)
        defer { PoolThreadMark.restore(previous) }
        return try body()
    }

    // MARK: - Running

    private func run(_ index: Int) {
        let mark = PoolThreadMark(pool: self, index: index)
        mark.install()
        lock.lock()
        runJobs(index)
        lock.unlock()
    }

    /// Runs thread `index`'s work until the pool stops (or, for the lent thread, until it is
    /// asked to leave). Called and returns under the lock.
    private func runJobs(_ index: Int) {
        let isHost = index == hostIndex
        while true {
            if isHost, hostLeaving { return }
            let job: (@Sendable () -> Void)?
            if let next = runNext[index] {
                runNext[index] = nil
                job = next
            } else if head < work.count {
                job = work[head]
                work[head] = nil
                head += 1
                if head > 64, head * 2 > work.count {
                    work.removeFirst(head)
                    head = 0
                }
            } else if stopping, !isHost {
                return  // (a lent thread stays until its caller's work has ended)
            } else {
                if !isIdle[index] {
                    isIdle[index] = true
                    idle.append(index)
                }
                lock.wait(for: wakeUps[index])
                continue
            }
            markBusy(index)  // woken spuriously, it found work itself
            lock.unlock()
            job?()
            lock.lock()
        }
    }
}

// MARK: - PoolThreadMark

/// Which pool, and which of its threads, the current thread is: kept in a thread-specific slot
/// for as long as the thread runs.
private final class PoolThreadMark {
    unowned let pool: ThreadPool
    let index: Int

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    init(pool: ThreadPool, index: Int) {
        self.pool = pool
        self.index = index
    }

    /// Marks the current thread (which keeps this mark alive while it is marked).
    func install() {
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The current thread's mark, to put back with ``restore(_:)``.
    static var current: UnsafeMutableRawPointer? { pthread_getspecific(key) }

    static func restore(_ previous: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, previous)
    }

    /// The current thread's index in `pool`, or `nil` when it is not one of its threads.
    static func index(in pool: ThreadPool) -> Int? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let mark = Unmanaged<PoolThreadMark>.fromOpaque(raw).takeUnretainedValue()
        return mark.pool === pool ? mark.index : nil
    }
}

// MARK: - PoolTaskExecutor

/// A task executor running jobs on a ``ThreadPool`` (threads outside the cooperative pool).
final class PoolTaskExecutor: TaskExecutor, Sendable {
    let pool: ThreadPool

    init(pool: ThreadPool) {
        self.pool = pool
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
