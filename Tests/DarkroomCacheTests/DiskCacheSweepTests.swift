import DarkroomCache
import DiskCacheWorkload
import Foundation
import Testing

// MARK: - Sweeping

@Suite("Disk cache sweeps evict least recently used entries to the target, expire old ones and clear abandoned temp files")
struct DiskCacheSweepTests {
    /// Stores `count` equal-sized entries (keys 0..<count) and returns one entry file's size.
    private func fill(_ cache: DiskCache, count: Int) throws -> Int {
        for index in 0..<count {
            try cache.store(DiskWorkload.entry(index, minSize: 2000, maxSize: 2000), for: DiskWorkload.key(index))
        }
        return DiskTestFolder.size(of: cache.entryPath(for: DiskWorkload.key(0)))
    }

    @Test("a store that crosses the limit evicts the least recently used entries down to the target")
    func lruOrderOnStore() throws {
        let folder = try DiskTestFolder()
        // Every entry file has the same size (same key length, same payload length).
        let probe = try DiskTestFolder()  // a cache of its own: a cache refuses a folder holding another
        let size = try fill(DiskCache(directory: probe.path), count: 1)
        let cache = try DiskCache(directory: folder.path, limit: size * 5 + size / 2, sweepTarget: 0.6)
        _ = try fill(cache, count: 5)
        #expect(folder.entryFiles.count == 5)  // at the limit, not over: nothing swept
        _ = cache.entry(for: DiskWorkload.key(1))
        _ = cache.entry(for: DiskWorkload.key(0))
        try cache.store(DiskWorkload.entry(5, minSize: 2000, maxSize: 2000), for: DiskWorkload.key(5))
        // Six entries are over 5.5: the sweep keeps ⌊0.6 × 5.5⌋ = 3, the three used last.
        let kept = (0..<6).filter { DiskTestFolder.exists(cache.entryPath(for: DiskWorkload.key($0))) }
        #expect(kept == [0, 1, 5])
        #expect(folder.entryBytes <= Int(Double(size * 5 + size / 2) * 0.6))
        #expect(cache.statistics.entries == 3)
        #expect(cache.statistics.bytes == folder.entryBytes)
    }

    @Test("under a limit, the folder never ends a store larger than the limit")
    func limitHolds() throws {
        let folder = try DiskTestFolder()
        let limit = 60_000
        let cache = try DiskCache(directory: folder.path, limit: limit)
        for index in 0..<60 {
            try cache.store(DiskWorkload.entry(index, minSize: 500, maxSize: 9000), for: DiskWorkload.key(index))
            #expect(folder.entryBytes <= limit)
        }
        #expect(cache.statistics.bytes == folder.entryBytes)
        #expect(cache.statistics.entries == folder.entryFiles.count)
        // The last store is always kept: it was the most recently used.
        #expect(cache.entry(for: DiskWorkload.key(59)) != nil)
    }

    @Test("an explicit sweep trims to the target and reports what it removed and what is left")
    func explicitSweep() throws {
        let folder = try DiskTestFolder()
        let probe = try DiskTestFolder()  // a cache of its own: a cache refuses a folder holding another
        let size = try fill(DiskCache(directory: probe.path), count: 1)
        _ = try fill(DiskCache(directory: folder.path), count: 10)
        let cache = try DiskCache(directory: folder.path, limit: size * 10, sweepTarget: 0.5)
        let result = cache.sweep()
        #expect(result.evictedEntries == 5)
        #expect(result.expiredEntries == 0)
        #expect(result.removedBytes == 5 * size)
        #expect(result.remainingEntries == 5)
        #expect(result.remainingBytes == folder.entryBytes)
        #expect(cache.sweep().evictedEntries == 0)
    }

    @Test("without a limit or max age a sweep removes no entries")
    func unboundedSweep() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        _ = try fill(cache, count: 4)
        #expect(cache.sweep().remainingEntries == 4)
        #expect(folder.entryFiles.count == 4)
    }

    @Test("entries older than the max age are misses when read and are removed by a sweep")
    func maxAge() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path, maxAge: 600)
        let old = Date().addingTimeInterval(-3600)
        for index in 0..<3 {
            try cache.store(DiskCacheEntry(bytes: [UInt8(index)], created: old), for: DiskWorkload.key(index))
        }
        try cache.store(DiskCacheEntry(bytes: [9]), for: DiskWorkload.key(3))
        #expect(cache.entry(for: DiskWorkload.key(0)) == nil)
        #expect(!DiskTestFolder.exists(cache.entryPath(for: DiskWorkload.key(0))))
        let result = cache.sweep()
        #expect(result.expiredEntries == 2)
        #expect(result.remainingEntries == 1)
        #expect(cache.entry(for: DiskWorkload.key(3))?.bytes == [9])
        // The same folder without a max age serves old entries.
        let patient = try DiskCache(directory: folder.path)
        try patient.store(DiskCacheEntry(bytes: [1], created: old), for: DiskWorkload.key(4))
        #expect(patient.entry(for: DiskWorkload.key(4))?.bytes == [1])
    }

    @Test("temp files and purge folders abandoned for over five minutes are removed, fresh ones kept")
    func abandonedTemporaries() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        let tmp = folder.path + "/tmp/"
        try Data([1, 2]).write(to: URL(fileURLWithPath: tmp + "123-dead.tmp"))
        try Data([1, 2]).write(to: URL(fileURLWithPath: tmp + "456-live.tmp"))
        try FileManager.default.createDirectory(atPath: tmp + "purge-1-x/v1/aa", withIntermediateDirectories: true)
        try Data([3]).write(to: URL(fileURLWithPath: tmp + "purge-1-x/v1/aa/e.entry"))
        let old = Date().addingTimeInterval(-600)
        for name in ["123-dead.tmp", "purge-1-x"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: tmp + name)
        }
        let result = cache.sweep()
        #expect(result.removedTemporaryFiles == 2)
        #expect(folder.temporaryItems == ["456-live.tmp"])
    }

    @Test("a source folder emptied by a sweep is removed")
    func emptyGroupsRemoved() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path, maxAge: 60)
        let key = CacheKey(source: "gone", variant: "v")
        try cache.store(DiskCacheEntry(bytes: [1], created: Date().addingTimeInterval(-120)), for: key)
        let group = DiskFilesPath.parent(cache.entryPath(for: key))
        #expect(DiskTestFolder.exists(group + "/source"))
        cache.sweep()
        #expect(!DiskTestFolder.exists(group))
        // …and comes back with the next store.
        try cache.store(DiskCacheEntry(bytes: [2]), for: key)
        #expect(cache.entry(for: key)?.bytes == [2])
        #expect(DiskTestFolder.exists(group + "/source"))
    }
}

/// Path helpers for the tests.
enum DiskFilesPath {
    static func parent(_ path: String) -> String { URL(fileURLWithPath: path).deletingLastPathComponent().path }
}
