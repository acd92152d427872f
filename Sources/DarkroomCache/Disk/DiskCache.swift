import DarkroomCore
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - DiskCache

/// A crash-safe, multi-process-safe cache of encoded images (renders and fetched originals)
/// in a folder, bounded by size and age.
///
/// ```swift
/// let cache = try DiskCache(directory: "/var/cache/darkroom", limit: 2 << 30, maxAge: 30 * 86_400)
/// let key = CacheKey(source: "/photos/cat.jpg", variant: "thumb>webp(quality=80)")
/// if let hit = cache.entry(for: key) { return hit.bytes }
/// try? cache.store(DiskCacheEntry(bytes: webp, format: .webp), for: key)
/// cache.removeAll(forSource: "/photos/cat.jpg")   // purge one source
/// ```
///
/// ## Layout
/// ```text
/// <root>/v1/<sourceDigest[0..<2]>/<sourceDigest>/<persistentName>.entry
/// <root>/v1/<sourceDigest[0..<2]>/<sourceDigest>/source     "v<salt>|<source>" (for listings)
/// <root>/tmp/        in-progress writes (<pid>-<random>.tmp) and purges (purge-…/)
/// <root>/stats       hit/miss totals of all processes ("hits N", "misses N"; flock)
/// <root>/sweep.lock  taken (flock) by whoever sweeps
/// <root>/CACHEDIR.TAG marks the folder as Darkroom's cache (backup tools skip it)
/// ```
/// A folder that holds anything else and has no tag naming Darkroom is refused when the
/// cache is opened, so a cache pointed at the wrong folder never deletes other files.
/// All of a source's renders share one folder, so purging a source is one `rename` out of
/// the tree followed by deleting at leisure.
///
/// ## Entry file (format version 1, integers little-endian)
/// ```text
///  0  4  magic "DRKC"
///  4  2  format version (1)
///  6  4  header length H — the payload starts at H
/// 10  8  payload length P — the file is exactly H + P bytes
/// 18  8  created: Float64 bits, seconds since 2001-01-01 (Date's reference date)
/// 26  2  field count N
/// 28  …  N fields: tag (1 byte), length (4 bytes), UTF-8 text. Tags: 1 key text (required,
///        must equal the key asked for), 2 image format, 3 content type, 4 ETag,
///        5 Last-Modified, 6 max-age (decimal seconds), 7 the frame count of an animation
///        rendered as its first frame alone (decimal); unknown tags are skipped
/// H-32 32 SHA-256 of bytes [0, H-32) followed by the payload
///  H  P  payload (the encoded image)
/// ```
///
/// ## Guarantees
/// - **Never a torn or wrong entry.** A write goes to a new file in `tmp/`, is `fsync`ed,
///   then `rename`d over the entry path (atomic on one filesystem), so readers see the
///   old entry, the new one or none — in any process, and after `kill -9` or a crash at any
///   instant. Every read checks magic, version, lengths, key and SHA-256; any mismatch or
///   short read is a miss and the file is deleted. Temp files are never read.
/// - **The filesystem is the index.** There is no shared index or database: an entry
///   exists exactly when its file does, so the cache survives restarts by construction and
///   many processes can share a folder without coordination. Folders are created with
///   race-safe `mkdir -p`; a write whose folder was swept away meanwhile recreates it.
/// - **LRU across processes.** A hit sets the file's access time (explicitly, with
///   `futimens`, so `noatime` mounts do not matter); the modification time is the entry's
///   `created` date. ``sweep()`` evicts by access time and expires by modification time.
/// - **Bounded size.** Each instance keeps a running estimate of the folder size (one scan,
///   then its own stores and removals); when a store pushes it over `limit`, the store
///   rescans and sweeps down to `sweepTarget × limit`. Several processes writing at once can
///   overshoot until one of them crosses the limit in its own estimate.
/// - **Durability.** An entry is `fsync`ed before it becomes visible; the folder is not, so a
///   power loss can lose a recent entry (a miss) but never expose a partial one.
///
/// Counters: hits and misses accumulate in memory and are added to `stats` under `flock`
/// every 32 lookups, on ``flush()``, on ``statistics`` and when the cache is deinitialised.
///
/// ## Plain string keys (`KeyValueCache`)
/// The primary API takes `CacheKey` because the layout needs the source, and
/// `CacheKey/string` cannot be split back (a source may contain `|`). The `KeyValueCache`
/// conformance takes opaque strings, as that protocol promises, hashes them and keeps them in
/// one group of their own: ``removeAll()``, ``removeValue(forKey:)`` and ``sweep()`` reach
/// them, ``removeAll(forSource:salt:)`` does not.
public final class DiskCache: Sendable {
    /// The cache folder.
    public let directory: String
    /// The size bound in bytes (whole entry files), or `nil` for none.
    public let limit: Int?
    /// The fraction of ``limit`` a sweep trims down to.
    public let sweepTarget: Double
    /// Entries older than this (by their `created` date) are misses and are swept.
    public let maxAge: TimeInterval?

    /// Lookups between two flushes of the hit/miss counters to the `stats` file.
    static let flushInterval = 32
    /// Temp files and purge folders untouched for this long belong to dead writers.
    static let staleTemporaryAge: TimeInterval = 300

    let layout: DiskCacheLayout
    let state = Mutex(DiskCacheState())
    /// Serialises flushes so a reader of ``statistics`` never sees a delta in flight.
    let flushLock = Mutex(())

    /// Opens (creating if needed) a cache folder.
    /// - Parameters:
    ///   - directory: the cache folder; shared safely by any number of processes.
    ///   - limit: the size bound in bytes, or `nil`.
    ///   - sweepTarget: the fraction of `limit` a sweep trims to, in (0, 1].
    ///   - maxAge: the age after which an entry is no longer served, or `nil`.
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a bad setting,
    ///   `DarkroomError/io(path:detail:)` if the folder cannot be created, or if it holds
    ///   files that are not a Darkroom cache's (see `DiskCacheFolderClaim`: the cache deletes
    ///   files in its folder, so it only takes an empty folder or one that is already its own).
    public init(directory: String, limit: Int? = nil, sweepTarget: Double = 0.8, maxAge: TimeInterval? = nil) throws {
        if let limit, limit <= 0 {
            throw DarkroomError.invalidArgument(name: "limit", value: "\(limit)", expected: "a positive number of bytes")
        }
        guard sweepTarget > 0, sweepTarget <= 1 else {
            throw DarkroomError.invalidArgument(
                name: "sweepTarget", value: "\(sweepTarget)", expected: "a fraction of the limit in (0, 1]")
        }
        if let maxAge, !(maxAge > 0) {
            throw DarkroomError.invalidArgument(name: "maxAge", value: "\(maxAge)", expected: "a positive number of seconds")
        }
        self.directory = directory
        self.limit = limit
        self.sweepTarget = sweepTarget
        self.maxAge = maxAge
        layout = DiskCacheLayout(root: directory)
        let failure = DiskFiles.makeDirectories(layout.root)
        guard failure == 0 else {
            throw DarkroomError.io(path: layout.root, detail: "cannot create the cache folder: \(DiskFiles.describe(failure))")
        }
        try DiskCacheFolderClaim.claim(layout)
        for folder in [layout.entriesRoot, layout.temporaryRoot] {
            let failure = DiskFiles.makeDirectories(folder)
            guard failure == 0 else {
                throw DarkroomError.io(path: folder, detail: "cannot create the cache folder: \(DiskFiles.describe(failure))")
            }
        }
    }

    deinit {
        flush()
    }

    // MARK: - Lookups

    /// The entry stored for `key`, or `nil` on a miss. Missing, expired and corrupt entries
    /// are misses; expired and corrupt files are deleted. A hit marks the entry as used.
    public func entry(for key: CacheKey) -> DiskCacheEntry? {
        lookUp(DiskCacheAddress(key))
    }

    /// The path of `key`'s entry file (which may not exist), for diagnostics.
    public func entryPath(for key: CacheKey) -> String {
        layout.entryPath(DiskCacheAddress(key))
    }

    func lookUp(_ address: DiskCacheAddress) -> DiskCacheEntry? {
        let entry = readVerified(address)
        record(hit: entry != nil)
        return entry
    }

    private func readVerified(_ address: DiskCacheAddress) -> DiskCacheEntry? {
        let path = layout.entryPath(address)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let status = DiskFiles.status(of: descriptor), status.isRegularFile else { return nil }
        switch DiskEntryCodec.read(descriptor, fileSize: status.size, expectedKey: address.keyText) {
        case .failure:
            discard(path, ifStill: status)
            return nil
        case .success(let entry):
            if let maxAge, Date().timeIntervalSince(entry.created) > maxAge {
                discard(path, ifStill: status)
                return nil
            }
            DiskFiles.setTimes(of: descriptor, accessed: DiskFiles.now(), modified: nil)
            return entry
        }
    }

    /// Deletes a bad file — unless another writer has replaced it since it was opened.
    private func discard(_ path: String, ifStill opened: DiskFiles.Status) {
        guard let current = DiskFiles.status(atPath: path), current.isSameFile(as: opened), unlink(path) == 0 else { return }
        adjustEstimate(entries: -1, bytes: -opened.size)
    }

    // MARK: - Storing

    /// Stores `entry` for `key`, replacing any previous entry atomically. Callers may ignore
    /// the error: a failed store leaves the previous entry (or none), never a partial one.
    /// - Throws: `DarkroomError/io(path:detail:)` naming the entry path.
    public func store(_ entry: DiskCacheEntry, for key: CacheKey) throws {
        try write(entry, at: DiskCacheAddress(key))
    }

    func write(_ entry: DiskCacheEntry, at address: DiskCacheAddress) throws {
        let header = DiskEntryCodec.header(for: entry, keyText: address.keyText)
        guard header.count <= DiskEntryCodec.maximumHeaderLength else {
            throw DarkroomError.io(
                path: layout.entryPath(address),
                detail: "key and metadata take \(header.count) bytes, more than the header limit of "
                    + "\(DiskEntryCodec.maximumHeaderLength) bytes")
        }
        let folder = layout.groupFolder(digest: address.groupDigest)
        let created = DiskFiles.timespecFrom(secondsSince1970: entry.created.timeIntervalSince1970)
        let replaced = try writeAtomically(
            [header, entry.bytes], to: layout.entryPath(address), in: folder,
            times: (accessed: DiskFiles.now(), modified: created))
        ensureSourceFile(for: address)

        let size = header.count + entry.bytes.count
        let limit = limit
        let overLimit = state.withLock { state -> Bool in
            if state.scanned {
                state.entries += replaced == nil ? 1 : 0
                state.bytes += size - (replaced?.size ?? 0)
            }
            guard let limit else { return false }
            return !state.scanned || state.bytes > limit
        }
        if overLimit { sweepIfOverLimit() }
    }

    /// Writes the group's `source` file the first time the group is written to.
    private func ensureSourceFile(for address: DiskCacheAddress) {
        let path = layout.sourcePath(digest: address.groupDigest)
        guard access(path, F_OK) != 0 else { return }
        _ = try? writeAtomically(
            [Array(address.groupText.utf8)], to: path, in: layout.groupFolder(digest: address.groupDigest), times: nil)
    }

    // MARK: - Removing

    /// Removes `key`'s entry. Returns whether there was one.
    @discardableResult
    public func remove(_ key: CacheKey) -> Bool {
        removeEntry(at: DiskCacheAddress(key))
    }

    @discardableResult
    func removeEntry(at address: DiskCacheAddress) -> Bool {
        let path = layout.entryPath(address)
        guard let status = DiskFiles.status(atPath: path), unlink(path) == 0 else { return false }
        adjustEstimate(entries: -1, bytes: -status.size)
        return true
    }

    func adjustEstimate(entries: Int, bytes: Int) {
        state.withLock { state in
            guard state.scanned else { return }
            state.entries = max(0, state.entries + entries)
            state.bytes = max(0, state.bytes + bytes)
        }
    }
}

// MARK: - DiskCacheState

/// The mutable part of a ``DiskCache``: the size estimate and unflushed counters.
struct DiskCacheState: Sendable {
    /// Whether ``entries`` and ``bytes`` are based on a scan yet.
    var scanned = false
    var entries = 0
    var bytes = 0
    var pending = DiskCacheCounters()
    var lookupsSinceFlush = 0
}
