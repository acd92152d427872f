import DarkroomCache
import DiskCacheWorkload
import Foundation
import Testing

// MARK: - Restarts

@Suite("A disk cache folder survives restarts: entries, sizes, listings and hit/miss totals")
struct DiskCachePersistenceTests {
    @Test("entries stored by one instance are hits for a new instance on the same folder")
    func entriesPersist() throws {
        let folder = try DiskTestFolder()
        let entries = (0..<6).map { DiskWorkload.entry($0, minSize: 100, maxSize: 3000) }
        do {
            let first = try DiskCache(directory: folder.path)
            for (index, entry) in entries.enumerated() { try first.store(entry, for: DiskWorkload.key(index)) }
        }
        let second = try DiskCache(directory: folder.path)
        for (index, entry) in entries.enumerated() {
            #expect(second.entry(for: DiskWorkload.key(index)) == entry)
        }
        let statistics = second.statistics
        #expect(statistics.entries == 6)
        #expect(statistics.bytes == folder.entryBytes)
    }

    @Test("hit and miss totals are kept in the folder and add up across instances")
    func statisticsPersist() throws {
        let folder = try DiskTestFolder()
        let key = CacheKey(source: "s", variant: "v")
        do {
            let first = try DiskCache(directory: folder.path)
            _ = first.entry(for: key)  // miss
            try first.store(DiskCacheEntry(bytes: [1]), for: key)
            _ = first.entry(for: key)  // hit
            _ = first.entry(for: key)  // hit
        }  // deinit flushes
        let second = try DiskCache(directory: folder.path)
        var statistics = second.statistics
        #expect(statistics.hits == 2)
        #expect(statistics.misses == 1)
        // More than one flush interval's worth, without an explicit flush, from a third instance.
        let third = try DiskCache(directory: folder.path)
        for _ in 0..<40 { _ = third.entry(for: key) }
        #expect(second.statistics.hits == 2 + 32)  // third flushed once on its own
        #expect(third.statistics.hits == 42)  // and the rest when asked
        statistics = second.statistics
        #expect(statistics.hits == 42)
        #expect(statistics.misses == 1)
        #expect(abs(statistics.hitRate - 42.0 / 43.0) < 1e-12)
    }

    @Test("the access time set by a hit orders a later instance's LRU sweep")
    func accessTimePersists() throws {
        let folder = try DiskTestFolder()
        let entrySize: Int
        do {
            let first = try DiskCache(directory: folder.path)
            for index in 0..<4 { try first.store(DiskWorkload.entry(index, minSize: 1000, maxSize: 1000), for: DiskWorkload.key(index)) }
            _ = first.entry(for: DiskWorkload.key(0))
            entrySize = DiskTestFolder.size(of: first.entryPath(for: DiskWorkload.key(0)))
        }
        // Room for two of the four: the two used last (0, then 3) remain.
        let second = try DiskCache(directory: folder.path, limit: entrySize * 2, sweepTarget: 1)
        let result = second.sweep()
        #expect(result.evictedEntries == 2)
        #expect(second.entry(for: DiskWorkload.key(0)) != nil)
        #expect(second.entry(for: DiskWorkload.key(3)) != nil)
        #expect(second.entry(for: DiskWorkload.key(1)) == nil)
        #expect(second.entry(for: DiskWorkload.key(2)) == nil)
    }

    @Test("a listing shows each source with its salt, entry count and bytes, largest first")
    func listing() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        try cache.store(DiskCacheEntry(bytes: [UInt8](repeating: 1, count: 500)), for: CacheKey(source: "a|b.jpg", variant: "x"))
        try cache.store(DiskCacheEntry(bytes: [UInt8](repeating: 1, count: 500)), for: CacheKey(source: "a|b.jpg", variant: "y"))
        try cache.store(DiskCacheEntry(bytes: [1]), for: CacheKey(source: "c.png", variant: "x", salt: 7))
        cache.insert(DiskCacheEntry(bytes: [2]), forKey: "plain")
        let sources = try DiskCache(directory: folder.path).sources()
        #expect(sources.count == 3)
        #expect(sources.first?.source == "a|b.jpg")
        #expect(sources.first?.salt == CacheKey.currentSalt)
        #expect(sources.first?.entries == 2)
        #expect(sources.first?.sourceDigest == CacheKey.original(source: "a|b.jpg").sourceDigest)
        #expect(sources.contains { $0.source == "c.png" && $0.salt == 7 && $0.entries == 1 })
        #expect(sources.contains { $0.source == nil && $0.entries == 1 })  // the plain string keys
        #expect(sources.reduce(0) { $0 + $1.bytes } == folder.entryBytes)
    }
}
