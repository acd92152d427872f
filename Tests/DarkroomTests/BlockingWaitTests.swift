import Darkroom
import DarkroomTestSupport
import Synchronization
import Testing

// MARK: - BlockingWait

/// Counts the instances alive: the work's captures must be gone when `run` returns.
private final class Capture: Sendable {
    static let alive = Atomic<Int>(0)
    init() { Self.alive.add(1, ordering: .sequentiallyConsistent) }
    deinit { Self.alive.subtract(1, ordering: .sequentiallyConsistent) }
}

/// Each test blocks its own thread, never a cooperative one (the work needs the pool).
@Suite("BlockingWait runs async work to completion and lets go of it before returning")
struct BlockingWaitTests {
    @Test("the value and the error come back")
    func valueAndError() async throws {
        #expect(try await onOwnThread { try BlockingWait.run { 6 * 7 } } == 42)
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await onOwnThread { try BlockingWait.run { () async throws -> Int in throw Failure() } }
        }
    }

    @Test("when run returns, what the work captured is released (a cache's last reference, flushed on deinit)")
    func capturesReleasedBeforeReturn() async throws {
        try await onOwnThread { try Self.releaseRounds() }
    }

    static func releaseRounds() throws {
        for _ in 0..<500 {
            let value = try BlockingWait.run { [capture = Capture()] in
                withExtendedLifetime(capture) { 1 }
            }
            #expect(value == 1)
            let alive = Capture.alive.load(ordering: .sequentiallyConsistent)
            #expect(alive == 0)
            if alive != 0 { break }
        }
    }
}
