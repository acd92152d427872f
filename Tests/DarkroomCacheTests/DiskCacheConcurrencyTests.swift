import DarkroomCache
import DiskCacheWorkload
import Dispatch
import Synchronization
import Testing

// MARK: - Threads

@Suite("Many threads using the disk cache at once see only whole, correct entries")
struct DiskCacheConcurrencyTests {
    @Test("threads storing, reading, removing and sweeping overlapping keys under a limit never read a wrong entry")
    func manyThreads() throws {
        let folder = try DiskTestFolder()
        // Two instances on one folder, as two subsystems of one process might have.
        let caches = try [
            DiskCache(directory: folder.path, limit: 150_000), DiskCache(directory: folder.path, limit: 150_000),
        ]
        let keys = 40, minSize = 1000, maxSize = 12_000
        let bad = Atomic<Int>(0), reads = Atomic<Int>(0), hits = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let cache = caches[thread % 2]
            var random = SystemRandomNumberGenerator()
            for _ in 0..<150 {
                let index = Int.random(in: 0..<keys, using: &random)
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<10:
                    reads.add(1, ordering: .relaxed)
                    if let entry = cache.entry(for: DiskWorkload.key(index)) {
                        hits.add(1, ordering: .relaxed)
                        if !DiskWorkload.matches(entry, index, minSize: minSize, maxSize: maxSize) { bad.add(1, ordering: .relaxed) }
                    }
                case 10..<18:
                    try? cache.store(DiskWorkload.entry(index, minSize: minSize, maxSize: maxSize), for: DiskWorkload.key(index))
                case 18:
                    cache.remove(DiskWorkload.key(index))
                default:
                    cache.sweep()
                }
            }
        }
        #expect(bad.load(ordering: .relaxed) == 0)
        #expect(hits.load(ordering: .relaxed) > 0)
        let totals = caches[0].statistics, other = caches[1].statistics
        // Each instance flushes its own counts; together they are every lookup made.
        #expect(other.hits + other.misses == reads.load(ordering: .relaxed))
        #expect(totals.hits + totals.misses <= reads.load(ordering: .relaxed))
        #expect(other.hits == hits.load(ordering: .relaxed))
        #expect(folder.temporaryItems.isEmpty)
        // Everything left on disk is whole and correct.
        let fresh = try DiskCache(directory: folder.path)
        for index in 0..<keys {
            if let entry = fresh.entry(for: DiskWorkload.key(index)) {
                #expect(DiskWorkload.matches(entry, index, minSize: minSize, maxSize: maxSize))
            }
        }
        #expect(fresh.statistics.entries == folder.entryFiles.count)
    }
}
