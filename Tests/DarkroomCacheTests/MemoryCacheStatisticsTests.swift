@testable import DarkroomCache
import DarkroomCore
import Testing

// MARK: - Statistics

@Suite("The memory cache counts hits, misses, insertions, evictions and rejections")
struct MemoryCacheStatisticsTests {
    typealias T = MemoryTestImages

    @Test("every lookup is a hit or a miss, and entries and bytes match the contents")
    func counters() {
        let cache = AutoPurgingImageCache(memoryCapacity: 400, preferredMemoryUsageAfterPurge: 200)
        #expect(cache.statistics == .init(hits: 0, misses: 0, insertions: 0, evictions: 0, rejections: 0, entries: 0, bytes: 0))
        #expect(cache.statistics.hitRate == 0)
        for i in 0..<4 { cache.add(T.image(bytes: 100, key: i), withIdentifier: "\(i)") }
        _ = cache.image(withIdentifier: "0")
        _ = cache.image(withIdentifier: "1")
        _ = cache.image(withIdentifier: "1")
        _ = cache.image(withIdentifier: "nope")
        _ = cache.value(forKey: "nope")
        cache.add(T.image(bytes: 100, key: 4), withIdentifier: "4")  // evicts 2, 3, 0
        cache.add(T.image(bytes: 404), withIdentifier: "huge")  // rejected
        _ = cache.image(withIdentifier: "2")
        let stats = cache.statistics
        #expect(stats == .init(hits: 3, misses: 3, insertions: 6, evictions: 3, rejections: 1, entries: 2, bytes: 200))
        #expect(stats.hitRate == 0.5)
        #expect(stats.description.contains("3 hits"))
    }

    @Test("explicit removals and purgeAll are not counted as evictions")
    func removalsAreNotEvictions() {
        let cache = AutoPurgingImageCache()
        for i in 0..<3 { cache.add(T.image(bytes: 8, key: i), for: "s", withIdentifier: "\(i)") }
        cache.removeImage(for: "s", withIdentifier: "0")
        cache.removeImages(forSource: "s")
        cache.add(T.image(bytes: 8), withIdentifier: "x")
        cache.purgeAll()
        let stats = cache.statistics
        #expect(stats.evictions == 0)
        #expect(stats.insertions == 4)
        #expect(stats.entries == 0 && stats.bytes == 0)
    }
}
