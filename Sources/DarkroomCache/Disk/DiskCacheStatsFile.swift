#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - DiskCacheCounters

/// Hit and miss counts, either totals or not yet flushed deltas.
struct DiskCacheCounters: Sendable, Equatable {
    var hits = 0
    var misses = 0

    var isZero: Bool { hits == 0 && misses == 0 }
}

// MARK: - DiskCacheStatsFile

/// The folder's persistent hit/miss totals: a small text file (`hits N` / `misses N` lines)
/// read under a shared `flock` and updated in place under an exclusive one, so concurrent
/// processes add their counts without losing any.
///
/// The new text is never shorter than the old (counts only grow), so it is written over the
/// old one in a single `pwrite`; a process killed mid-update loses at most its own delta.
enum DiskCacheStatsFile {
    static let header = "darkroom-cache-stats 1"

    /// The totals on disk, or zeros if there is no readable file yet.
    static func read(atPath path: String) -> DiskCacheCounters {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return DiskCacheCounters() }
        defer { close(descriptor) }
        lock(descriptor, LOCK_SH)
        defer { flock(descriptor, LOCK_UN) }
        return contents(of: descriptor)
    }

    /// Adds `delta` to the totals on disk. Returns whether it was written.
    static func add(_ delta: DiskCacheCounters, toFileAt path: String) -> Bool {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        lock(descriptor, LOCK_EX)
        defer { flock(descriptor, LOCK_UN) }
        var totals = contents(of: descriptor)
        totals.hits += delta.hits
        totals.misses += delta.misses
        let text = Array(encode(totals).utf8)
        let written = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == text.count else { return false }
        ftruncate(descriptor, off_t(text.count))
        return true
    }

    // MARK: - Text

    static func encode(_ counters: DiskCacheCounters) -> String {
        "\(header)\nhits \(counters.hits)\nmisses \(counters.misses)\n"
    }

    /// Parses the file's text; anything unreadable counts as zero.
    static func decode(_ text: String) -> DiskCacheCounters {
        var counters = DiskCacheCounters()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]), value >= 0 else { continue }
            switch parts[0] {
            case "hits": counters.hits = value
            case "misses": counters.misses = value
            default: continue
            }
        }
        return counters
    }

    private static func contents(of descriptor: Int32) -> DiskCacheCounters {
        guard let status = DiskFiles.status(of: descriptor), status.size <= 4096,
            let bytes = DiskFiles.read(descriptor, count: status.size, at: 0)
        else { return DiskCacheCounters() }
        return decode(String(decoding: bytes, as: UTF8.self))
    }

    private static func lock(_ descriptor: Int32, _ operation: Int32) {
        while flock(descriptor, operation) != 0, errno == EINTR {}
    }
}
