@testable import DarkroomCache
import DarkroomTestSupport
import DarkroomCore
import Testing

// MARK: - Purging

@Suite("The memory cache purges least recently accessed images down to the preferred usage")
struct MemoryCachePurgeTests {
    typealias T = MemoryTestImages

    /// Ten 100-byte images "a0"…"a9" in a 1000-byte cache purging to 600.
    func fullCache() -> AutoPurgingImageCache {
        let cache = AutoPurgingImageCache(memoryCapacity: 1000, preferredMemoryUsageAfterPurge: 600)
        for i in 0..<10 { cache.add(T.image(bytes: 100, key: i), withIdentifier: "a\(i)") }
        return cache
    }

    @Test("reaching the capacity exactly does not purge; passing it purges the oldest down to 600 bytes")
    func purgeOrderAndSize() throws {
        let cache = fullCache()
        #expect(cache.memoryUsage == 1000)
        #expect(cache.count == 10)
        cache.add(T.image(bytes: 100, key: 10), withIdentifier: "a10")
        #expect(cache.memoryUsage == 600)
        #expect(cache.identifiersByRecency == ["a10", "a9", "a8", "a7", "a6", "a5"])
        for i in 0..<5 { #expect(cache.image(withIdentifier: "a\(i)") == nil) }
        #expect(cache.statistics.evictions == 5)
        try cache.validateInvariants()
    }

    @Test("a purge stops at the first image that brings usage to the target or below")
    func purgeStopsAtTarget() throws {
        let cache = AutoPurgingImageCache(memoryCapacity: 1000, preferredMemoryUsageAfterPurge: 600)
        for (i, bytes) in [300, 40, 400, 200].enumerated() { cache.add(T.image(bytes: bytes, key: i), withIdentifier: "b\(i)") }
        #expect(cache.memoryUsage == 940)
        cache.add(T.image(bytes: 80, key: 4), withIdentifier: "b4")  // 1020: drop b0 (720), b1 (680), b2 (280)
        #expect(cache.identifiersByRecency == ["b4", "b3"])
        #expect(cache.memoryUsage == 280)
        try cache.validateInvariants()
    }

    @Test("reads make an image the most recently accessed, so it survives the purge")
    func readsUpdateAccessOrder() throws {
        let cache = fullCache()
        #expect(cache.image(withIdentifier: "a0") != nil)
        #expect(cache.image(withIdentifier: "a3") != nil)
        #expect(cache.image(withIdentifier: "missing") == nil)
        cache.add(T.image(bytes: 100, key: 10), withIdentifier: "a10")
        #expect(cache.identifiersByRecency == ["a10", "a3", "a0", "a9", "a8", "a7"])
        #expect(cache.memoryUsage == 600)
        try cache.validateInvariants()
    }

    @Test("an image larger than the capacity is not stored and does not disturb the others")
    func oversizeNotStored() throws {
        let cache = fullCache()
        cache.add(T.image(bytes: 1004), withIdentifier: "huge")
        #expect(cache.image(withIdentifier: "huge") == nil)
        #expect(cache.count == 10)
        #expect(cache.memoryUsage == 1000)
        #expect(cache.statistics.rejections == 1)
        #expect(cache.statistics.evictions == 0)
        try cache.validateInvariants()
    }

    @Test("an oversize replacement removes the old image, so a stale image is never served")
    func oversizeReplacementRemovesOld() throws {
        let cache = fullCache()
        cache.add(T.image(bytes: 1004), withIdentifier: "a4")
        #expect(cache.image(withIdentifier: "a4") == nil)
        #expect(cache.memoryUsage == 900)
        try cache.validateInvariants()
    }

    @Test("an image between the target and the capacity is kept alone; one of exactly the capacity too")
    func newestImageIsKept() throws {
        let cache = fullCache()
        cache.add(T.image(bytes: 800, key: 99), withIdentifier: "big")
        #expect(cache.identifiersByRecency == ["big"])
        #expect(cache.memoryUsage == 800)
        cache.add(T.image(bytes: 1000, key: 98), withIdentifier: "max")
        #expect(cache.identifiersByRecency == ["max"])
        #expect(T.tag(of: try #require(cache.image(withIdentifier: "max")))?.key == 98)
        try cache.validateInvariants()
    }

    @Test("replacing an image updates the usage by the difference and makes it the most recent")
    func replacementUpdatesCost() throws {
        let cache = fullCache()
        cache.add(T.image(bytes: 40, key: 3, version: 1), withIdentifier: "a3")
        #expect(cache.memoryUsage == 940)
        #expect(cache.count == 10)
        #expect(cache.identifiersByRecency.first == "a3")
        #expect(T.tag(of: try #require(cache.image(withIdentifier: "a3")))?.version == 1)
        // Growing a0 by 100 passes the capacity: the oldest others go, a0 (newest) stays.
        cache.add(T.image(bytes: 200, key: 0, version: 1), withIdentifier: "a0")
        #expect(cache.memoryUsage == 540)
        #expect(cache.identifiersByRecency == ["a0", "a3", "a9", "a8", "a7"])
        try cache.validateInvariants()
    }

    @Test("usage never exceeds the capacity after any insert, and contents match the reference policy")
    func matchesReferencePolicy() throws {
        let capacity = 4000, target = 2500
        let cache = AutoPurgingImageCache(memoryCapacity: capacity, preferredMemoryUsageAfterPurge: target)
        var model = ReferenceLRUCache(capacity: capacity, target: target)
        var random = SeededGenerator(seed: 2024)
        for step in 0..<3000 {
            let key = "k\(Int.random(in: 0..<60, using: &random))"
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let bytes = 4 * Int.random(in: 1...(step % 97 == 0 ? 1200 : 150), using: &random)
                cache.add(T.image(bytes: bytes), withIdentifier: key)
                model.add(key, cost: bytes)
                #expect(cache.memoryUsage <= capacity)
            case 5..<9:
                #expect((cache.image(withIdentifier: key) != nil) == model.read(key))
            default:
                #expect(cache.removeImage(withIdentifier: key) == model.remove(key))
            }
            #expect(cache.identifiersByRecency == model.keys)
            #expect(cache.memoryUsage == model.usage)
        }
        #expect(model.evictions > 100)  // the run really purged
        #expect(cache.statistics.evictions == model.evictions)
        try cache.validateInvariants()
    }

    @Test("a zero after-purge target empties everything but the new image")
    func zeroTarget() throws {
        let cache = AutoPurgingImageCache(memoryCapacity: 400, preferredMemoryUsageAfterPurge: 0)
        for i in 0..<5 { cache.add(T.image(bytes: 100, key: i), withIdentifier: "z\(i)") }
        #expect(cache.identifiersByRecency == ["z4"])
        #expect(cache.memoryUsage == 100)
        try cache.validateInvariants()
    }
}
