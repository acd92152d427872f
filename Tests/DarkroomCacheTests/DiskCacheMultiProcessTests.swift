import DarkroomCache
import DiskCacheWorkload
import Foundation
import Testing

// MARK: - Two processes

@Suite("Two processes sharing a disk cache folder never see torn or wrong entries")
struct DiskCacheMultiProcessTests {
    @Test("two workers storing, reading, removing, purging and sweeping distinct and overlapping keys under one limit")
    func twoWriters() async throws {
        let folder = try DiskTestFolder()
        let keys = 30, minSize = 2000, maxSize = 60_000, limit = 500_000, operations = 300
        // Worker A uses keys 0..<30, worker B 15..<45: 15..<30 are shared.
        let workers = try [(seed: 11, firstKey: 0), (seed: 29, firstKey: 15)].map { worker in
            try DiskWorkerProcess([
                "mix", folder.path, "\(keys)", "\(minSize)", "\(maxSize)", "\(limit)", "\(operations)",
                "\(worker.seed)", "\(worker.firstKey)",
            ])
        }
        var outcomes: [(status: Int32, output: String)] = []
        for worker in workers { outcomes.append(try await worker.finish()) }
        var reportedLookups = 0
        for outcome in outcomes {
            #expect(outcome.status == 0, "\(outcome.output)")
            #expect(outcome.output.contains("bad=0"))
            let fields = Dictionary(uniqueKeysWithValues: outcome.output.split(whereSeparator: \.isWhitespace).compactMap { field in
                let parts = field.split(separator: "=")
                return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? 0) : nil
            })
            reportedLookups += (fields["hits"] ?? 0) + (fields["misses"] ?? 0)
            #expect((fields["stores"] ?? 0) > 0)
        }

        // What is left is whole and correct, and the shared stats file holds both workers' counts.
        let cache = try DiskCache(directory: folder.path)
        let before = cache.statistics
        #expect(before.hits + before.misses == reportedLookups)
        #expect(before.entries == folder.entryFiles.count)
        var hits = 0
        for index in 0..<(keys + 15) {
            guard let entry = cache.entry(for: DiskWorkload.key(index)) else { continue }
            hits += 1
            #expect(DiskWorkload.matches(entry, index, minSize: minSize, maxSize: maxSize), "key \(index)")
        }
        #expect(hits == before.entries)
        #expect(folder.temporaryItems.isEmpty)
    }
}
