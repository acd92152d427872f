@testable import Darkroom
@testable import DarkroomTools
import Dispatch
import Glibc
import Synchronization
import Testing

@Suite("SpreadThreads runs lanes at once, each new thread started on another CPU")
struct SpreadThreadsTests {
    @Test("every lane runs exactly once, lane 0 on the calling thread, and run returns after all")
    func everyLaneOnce() {
        let caller = pthread_self()
        for lanes in [0, 1, 2, 3, 7] {
            let ran = Mutex<[Int]>([])
            let onCaller = Mutex<[Int]>([])
            SpreadThreads.run(lanes: lanes) { lane in
                if pthread_equal(pthread_self(), caller) != 0 { onCaller.withLock { $0.append(lane) } }
                usleep(lane == 0 ? 0 : 2_000)  // the other lanes finish after lane 0
                ran.withLock { $0.append(lane) }
            }
            #expect(ran.withLock { $0.sorted() } == Array(0..<lanes), "lanes: \(lanes)")
            #expect(onCaller.withLock { $0 } == (lanes > 0 ? [0] : []), "lanes: \(lanes)")
        }
    }

    @Test("the lanes run at the same time: each one waits until all have started")
    func lanesRunConcurrently() {
        let lanes = 3
        let started = Atomic<Int>(0)
        let sawEveryone = Mutex<[Int: Bool]>([:])
        SpreadThreads.run(lanes: lanes) { lane in
            started.add(1, ordering: .sequentiallyConsistent)
            // Run one after another, lane 0 would wait here in vain; 10 s bounds the failure.
            let deadline = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
            while started.load(ordering: .sequentiallyConsistent) < lanes,
                DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(100)
            }
            let everyone = started.load(ordering: .sequentiallyConsistent) == lanes
            sawEveryone.withLock { $0[lane] = everyone }
        }
        #expect(sawEveryone.withLock { $0 } == [0: true, 1: true, 2: true])
    }

    @Test("a new thread is created on another CPU than its spawner's, and is not left pinned to it")
    func placement() throws {
        let allowed = SpreadThreads.allowedCPUCount
        let seen = Mutex<(placement: SpreadThreads.Placement?, allowed: Int)?>(nil)
        SpreadThreads.run(lanes: 2) { lane in
            guard lane == 1 else { return }
            seen.withLock { $0 = (SpreadThreads.currentPlacement, SpreadThreads.allowedCPUCount) }
        }
        let inside = try #require(seen.withLock { $0 })
        #expect(inside.allowed == allowed)
        #expect(SpreadThreads.currentPlacement == nil, "the calling thread has no placement")
        if allowed >= 2 {
            let placement = try #require(inside.placement)
            #expect(placement.target != placement.spawnedFrom)
            #expect(placement.firstRanOn == placement.target)
        } else {
            #expect(inside.placement == nil)
        }
    }

    @Test("detach returns at once and runs the closure on another thread")
    func detachDoesNotWait() {
        let caller = pthread_self()
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let onOtherThread = Mutex<Bool?>(nil)
        SpreadThreads.detach {
            go.wait()
            onOtherThread.withLock { $0 = pthread_equal(pthread_self(), caller) == 0 }
            done.signal()
        }
        // Had detach run the closure here, it would still be waiting for `go`.
        go.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(onOtherThread.withLock { $0 } == true)
    }
}
