@testable import Darkroom
import Dispatch
import Glibc
import Synchronization
import Testing

// MARK: - A waiting caller lends its thread

@Suite("A caller waiting on a pool that takes a host does the work on its own thread, and the pool starts fewer threads")
struct LentThreadTests {
    /// How many closures run at once now, and the most that ever did.
    final class Overlap: Sendable {
        let counts = Mutex((now: 0, most: 0))
    }

    /// Whether the current thread is `thread`.
    static func isThread(_ thread: pthread_t) -> Bool { pthread_equal(pthread_self(), thread) != 0 }

    @Test("the waiting caller runs the work itself, and the pool starts no thread for it")
    func callerRunsTheWork() throws {
        let pool = ThreadPool(name: "test.host", count: 2, keepsHandOversLocal: true, acceptsHost: true)
        defer { pool.stop() }
        let caller = pthread_self()
        let ranHere = try BlockingWait.run(on: PoolTaskExecutor(pool: pool)) { Self.isThread(caller) }
        #expect(ranHere)
        #expect(pool.startedThreadCount == 0)
    }

    @Test("the lent thread counts as one of the pool's: work beside it gets one started thread, never two")
    func lentThreadCountsTowardsTheSize() throws {
        let pool = ThreadPool(name: "test.host2", count: 2, keepsHandOversLocal: true, acceptsHost: true)
        defer { pool.stop() }
        let executor = PoolTaskExecutor(pool: pool)
        let running = Overlap()
        let ran = try BlockingWait.run(on: executor) {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask(executorPreference: executor) {
                        running.counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        usleep(5_000)  // long enough for the others to be queued meanwhile
                        running.counts.withLock { $0.now -= 1 }
                        return 1
                    }
                }
                return await group.reduce(0, +)
            }
        }
        #expect(ran == 6)
        #expect(pool.startedThreadCount == 1)
        #expect(running.counts.withLock { $0.most } <= 2)
    }

    @Test("work handed to the lent thread as the wait ends is run by the pool's own threads")
    func handOversOutliveTheWait() throws {
        let pool = ThreadPool(name: "test.host3", count: 2, keepsHandOversLocal: true, acceptsHost: true)
        defer { pool.stop() }
        let caller = pthread_self()
        let ranOn = Mutex<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        try BlockingWait.run(on: PoolTaskExecutor(pool: pool)) {
            // Submitted from the lent thread: its "run next" place, which it leaves with the wait.
            pool.submit {
                ranOn.withLock { $0 = Self.isThread(caller) ? -1 : pool.currentThreadIndex }
                done.signal()
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        let index = ranOn.withLock { $0 }
        #expect(index == 0)
    }

    @Test("a pool that takes no host leaves the caller waiting, the work on the pool's threads")
    func withoutHostTheCallerWaits() throws {
        let pool = ThreadPool(name: "test.nohost", count: 2, keepsHandOversLocal: true)
        defer { pool.stop() }
        let caller = pthread_self()
        let ranHere = try BlockingWait.run(on: PoolTaskExecutor(pool: pool)) { Self.isThread(caller) }
        #expect(!ranHere)
        #expect(pool.startedThreadCount == 1)
    }

    @Test("a pool thread waiting on its own pool keeps its place and does not host")
    func poolThreadDoesNotHost() throws {
        let pool = ThreadPool(name: "test.inner", count: 2, keepsHandOversLocal: true, acceptsHost: true)
        defer { pool.stop() }
        let inner = try BlockingWait.run(on: PoolTaskExecutor(pool: pool)) {
            // On the lent thread (a pool thread now): a second wait cannot host, so the work runs
            // on a started thread while this one waits.
            try BlockingWait.run(on: PoolTaskExecutor(pool: pool)) { pool.currentThreadIndex }
        }
        #expect(inner == 0)
    }
}
