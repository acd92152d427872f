import DarkroomCache
import DiskCacheWorkload
import Foundation
import Testing

// MARK: - kill -9

@Suite("A disk cache writer killed with SIGKILL mid-write never leaves a torn or wrong entry")
struct DiskCacheCrashTests {
    @Test("after several kills at random moments every entry reads back exactly as written, and no temp file is served")
    func killedWriters() async throws {
        let folder = try DiskTestFolder()
        let keys = 12, minSize = 256 * 1024, maxSize = 1024 * 1024
        var roundsWithTemporaryLeft = 0
        for _ in 0..<6 {
            let worker = try DiskWorkerProcess(["store-loop", folder.path, "\(keys)", "\(minSize)", "\(maxSize)"])
            #expect(try await worker.waitForLine("ready"))
            try await Task.sleep(for: .microseconds(Int.random(in: 10_000...120_000)))
            try await worker.killHard()
            #expect(worker.process.terminationReason == .uncaughtSignal)
            if !folder.temporaryItems.isEmpty { roundsWithTemporaryLeft += 1 }
        }
        // The writer spends nearly all its time between creating and renaming a temp file, so
        // some kill lands mid-write and leaves a partial temp file behind.
        #expect(roundsWithTemporaryLeft > 0)

        let cache = try DiskCache(directory: folder.path)
        let entryFiles = folder.entryFiles.count
        #expect(entryFiles > 0)
        var hits = 0
        for index in 0..<keys {
            guard let entry = cache.entry(for: DiskWorkload.key(index)) else { continue }
            hits += 1
            #expect(DiskWorkload.matches(entry, index, minSize: minSize, maxSize: maxSize), "key \(index)")
        }
        // Every entry file on disk was whole: none was found corrupt (and deleted) by a read.
        #expect(hits == entryFiles)
        #expect(folder.entryFiles.count == entryFiles)
        // The partial temp files stay out of the way until they are old enough to sweep.
        let leftovers = folder.temporaryItems
        #expect(cache.sweep().removedTemporaryFiles == 0)
        #expect(folder.temporaryItems == leftovers)
    }
}
