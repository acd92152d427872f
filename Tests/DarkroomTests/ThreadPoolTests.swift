@testable import Darkroom
import Dispatch
import Glibc
import Synchronization
import Testing

// MARK: - The pipeline's thread pools

@Suite("A thread pool starts threads as work needs them, keeps a thread's hand-overs on it, and lets go of what it ran")
struct ThreadPoolTests {
    final class Payload: Sendable {}

    @Test("what a run closure captured (a decoded image, in the pipeline) is freed once it has run")
    func releasesRunClosures() async {
        let pool = ThreadPool(name: "test-pool", count: 1)
        defer { pool.stop() }
        weak var released: Payload?
        do {
            let payload = Payload()
            released = payload
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                pool.submit { withExtendedLifetime(payload) { done.resume() } }
            }
        }
        // Kept 64 run closures (and up to 64 images) before.
        #expect(await eventually(30) { released == nil })
    }

    @Test("a thread starts only when work arrives and no thread is free to take it")
    func startsThreadsOnDemand() {
        let pool = ThreadPool(name: "test.lazy", count: 8)
        defer { pool.stop() }
        #expect(pool.startedThreadCount == 0)
        let arrived = Mutex(0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        for started in 1...2 {
            pool.submit {
                arrived.withLock { $0 += 1 }
                release.wait()
                done.signal()
            }
            while arrived.withLock({ $0 }) < started { usleep(1_000) }
            #expect(pool.startedThreadCount == started)
        }
        for _ in 0..<2 { release.signal() }
        for _ in 0..<2 { done.wait() }
        #expect(pool.startedThreadCount == 2)
    }

    @Test("closures that run at once get threads of their own, up to the pool's size")
    func growsToItsSize() {
        let pool = ThreadPool(name: "test.grow", count: 3)
        defer { pool.stop() }
        let arrived = Mutex(0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let threads = Mutex<Set<Int>>([])
        for _ in 0..<5 {
            pool.submit {
                arrived.withLock { $0 += 1 }
                threads.withLock { _ = $0.insert(pool.currentThreadIndex ?? -1) }
                release.wait()
                done.signal()
            }
        }
        while arrived.withLock({ $0 }) < 3 { usleep(1_000) }
        #expect(threads.withLock { $0 } == [0, 1, 2])
        for _ in 0..<5 { release.signal() }
        for _ in 0..<5 { done.wait() }
        #expect(arrived.withLock { $0 } == 5)
    }

    @Test("work a pool thread hands on runs next on that same thread")
    func handOversStayLocal() {
        let pool = ThreadPool(name: "test.local", count: 4, keepsHandOversLocal: true)
        defer { pool.stop() }
        let pairs = Mutex<[(Int?, Int?)]>([])
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<16 {
            pool.submit {
                let first = pool.currentThreadIndex
                pool.submit {
                    pairs.withLock { $0.append((first, pool.currentThreadIndex)) }
                    done.signal()
                }
            }
        }
        for _ in 0..<16 { done.wait() }
        let all = pairs.withLock { $0 }
        #expect(all.count == 16)
        #expect(all.allSatisfy { $0.0 != nil && $0.0 == $0.1 })
    }
}
