import DarkroomCache
import Foundation
import Testing

// MARK: - Purging

@Suite("Purging a source from the disk cache removes exactly that source's entries")
struct DiskCachePurgeTests {
    private let sources = ["/photos/a.jpg", "/photos/b.jpg", "https://127.0.0.1/c.png"]
    private let variants = ["", "thumb", "large", "circle>png(compression=6)"]

    private func filled() throws -> (DiskTestFolder, DiskCache) {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        for (s, source) in sources.enumerated() {
            for (v, variant) in variants.enumerated() {
                try cache.store(DiskCacheEntry(bytes: [UInt8(s), UInt8(v)]), for: CacheKey(source: source, variant: variant))
            }
        }
        return (folder, cache)
    }

    @Test("the purged source's original and renders all miss; every other entry still hits")
    func purgeOneSource() throws {
        let (folder, cache) = try filled()
        #expect(cache.statistics.entries == 12)
        #expect(cache.removeAll(forSource: "/photos/b.jpg") == 4)
        for (s, source) in sources.enumerated() {
            for (v, variant) in variants.enumerated() {
                let hit = cache.entry(for: CacheKey(source: source, variant: variant))
                #expect(hit?.bytes == (s == 1 ? nil : [UInt8(s), UInt8(v)]))
            }
        }
        #expect(cache.statistics.entries == 8)
        #expect(cache.statistics.bytes == folder.entryBytes)
        #expect(folder.temporaryItems.isEmpty)
        #expect(!DiskTestFolder.exists(DiskFilesPath.parent(cache.entryPath(for: CacheKey.original(source: "/photos/b.jpg")))))
    }

    @Test("purging an unknown source removes nothing; purging twice removes nothing the second time")
    func purgeNothing() throws {
        let (folder, cache) = try filled()
        #expect(cache.removeAll(forSource: "/photos/zzz.jpg") == 0)
        #expect(cache.removeAll(forSource: "/photos/a.jpg") == 4)
        #expect(cache.removeAll(forSource: "/photos/a.jpg") == 0)
        #expect(folder.entryFiles.count == 8)
    }

    @Test("a purge reaches only the given salt's entries")
    func purgeBySalt() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        try cache.store(DiskCacheEntry(bytes: [1]), for: CacheKey(source: "s", variant: "v", salt: 1))
        try cache.store(DiskCacheEntry(bytes: [2]), for: CacheKey(source: "s", variant: "v", salt: 2))
        #expect(cache.removeAll(forSource: "s", salt: 2) == 1)
        #expect(cache.entry(for: CacheKey(source: "s", variant: "v", salt: 1))?.bytes == [1])
        #expect(cache.entry(for: CacheKey(source: "s", variant: "v", salt: 2)) == nil)
    }

    @Test("removing everything empties the cache, keeps the hit/miss totals and later stores work")
    func removeEverything() throws {
        let (folder, cache) = try filled()
        _ = cache.entry(for: CacheKey(source: sources[0], variant: ""))
        cache.removeAll()
        #expect(folder.entryFiles.isEmpty)
        #expect(cache.statistics.entries == 0)
        #expect(cache.statistics.hits == 1)
        let key = CacheKey(source: sources[0], variant: "after")
        try cache.store(DiskCacheEntry(bytes: [5]), for: key)
        #expect(cache.entry(for: key)?.bytes == [5])
    }
}
