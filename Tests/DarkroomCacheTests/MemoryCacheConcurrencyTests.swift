@testable import DarkroomCache
import DarkroomTestSupport
import DarkroomCore
import Dispatch
import Synchronization
import Testing

// MARK: - Concurrency

@Suite("The memory cache stays consistent under many threads reading and writing at once")
struct MemoryCacheConcurrencyTests {
    typealias T = MemoryTestImages

    /// Counts of what the workers did, to check the statistics lost no update.
    struct Tally: Sendable {
        var reads = 0
        var adds = 0
        var wrongValues = 0
        var overCapacity = 0
    }

    @Test("8 × 2000 mixed operations: no torn or mixed-up image, usage within capacity, invariants hold")
    func mixedOperations() throws {
        let capacity = 2_048, target = 1_024
        let cache = AutoPurgingImageCache(memoryCapacity: capacity, preferredMemoryUsageAfterPurge: target)
        let tally = Mutex(Tally())
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var random = SeededGenerator(seed: UInt64(worker) + 1)
            var mine = Tally()
            for step in 0..<2000 {
                let key = Int.random(in: 0..<300, using: &random)
                let identifier = "k\(key)"
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<50:
                    mine.reads += 1
                    if let image = cache.image(withIdentifier: identifier), !Self.isWhole(image, key: key) {
                        mine.wrongValues += 1
                    }
                case 50..<90:
                    mine.adds += 1
                    let version = worker * 2000 + step
                    let image = T.image(width: Self.width(key: key, version: version), key: key, version: version)
                    cache.add(image, withIdentifier: identifier, source: "s\(key % 7)")
                    if cache.memoryUsage > capacity { mine.overCapacity += 1 }
                case 90..<96:
                    cache.removeImage(withIdentifier: identifier)
                case 96..<99:
                    cache.removeImages(forSource: "s\(key % 7)")
                default:
                    if step.isMultiple(of: 3) { cache.removeAllImages() } else { _ = cache.statistics }
                }
            }
            tally.withLock {
                $0.reads += mine.reads
                $0.adds += mine.adds
                $0.wrongValues += mine.wrongValues
                $0.overCapacity += mine.overCapacity
            }
        }
        let done = tally.withLock { $0 }
        #expect(done.wrongValues == 0)
        #expect(done.overCapacity == 0)
        let stats = cache.statistics
        #expect(stats.hits + stats.misses == done.reads)
        #expect(stats.insertions == done.adds)
        #expect(stats.hits > 0 && stats.evictions > 0)  // the run really hit and purged
        #expect(stats.bytes <= capacity)
        #expect(stats.entries == cache.identifiersByRecency.count)
        try cache.validateInvariants()
    }

    @Test("tasks in a task group adding and reading the same keys always read a whole image of that key")
    func taskGroupSameKeys() async throws {
        let cache = AutoPurgingImageCache(memoryCapacity: 2_000, preferredMemoryUsageAfterPurge: 1_000)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for step in 0..<2000 {
                        let key = step % 16
                        if (step + worker).isMultiple(of: 2) {
                            let version = worker * 2000 + step
                            cache.add(
                                T.image(width: Self.width(key: key, version: version), key: key, version: version),
                                withIdentifier: "k\(key)")
                        } else if let image = cache.image(withIdentifier: "k\(key)"), !Self.isWhole(image, key: key) {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(cache.memoryUsage <= 2_000)
        try cache.validateInvariants()
    }

    /// Whether `image` is one stored for `key`, whole: every pixel carries the key and a
    /// version, and its width is the one that version was made with.
    static func isWhole(_ image: Image, key: Int) -> Bool {
        guard let tag = T.tag(of: image) else { return false }
        return tag.key == key && image.width == width(key: key, version: tag.version)
    }

    /// 1–16 pixels, varying with the version so a mixed-up image shows in its size too.
    static func width(key: Int, version: Int) -> Int { 1 + (key &+ version * 7) % 16 }
}
