@testable import Darkroom
import Testing

// MARK: - What a thread pool keeps

@Suite("A thread pool lets go of a closure once it has run")
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
}
