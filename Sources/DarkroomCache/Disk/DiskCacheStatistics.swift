// MARK: - DiskCacheStatistics

/// What a ``DiskCache`` folder holds and how well it has served.
///
/// `entries` and `bytes` come from a scan of the folder (cached, kept up to date by this
/// instance's own stores and removals, and refreshed by ``DiskCache/sweep()`` and
/// ``DiskCache/refresh()``); `bytes` counts whole entry files, headers included.
/// `hits` and `misses` are the totals of every process that has used the folder, from its
/// `stats` file plus this instance's not yet flushed counts.
///
/// ```swift
/// let stats = cache.statistics
/// print("\(stats.entries) entries, \(stats.bytes) bytes, hit rate \(stats.hitRate)")
/// ```
public struct DiskCacheStatistics: Sendable, Equatable {
    /// Entries in the folder.
    public var entries: Int
    /// Size in bytes of the folder's entry files, headers included.
    public var bytes: Int
    /// Lookups that found an entry, by every process that has used the folder.
    public var hits: Int
    /// Lookups that found nothing, by every process that has used the folder.
    public var misses: Int

    /// Creates statistics with the given counts.
    public init(entries: Int, bytes: Int, hits: Int, misses: Int) {
        self.entries = entries
        self.bytes = bytes
        self.hits = hits
        self.misses = misses
    }

    /// Hits over lookups, or 0 before the first lookup.
    public var hitRate: Double {
        hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses)
    }
}

// MARK: - DiskCacheSweepResult

/// What one ``DiskCache/sweep()`` removed and what is left.
///
/// ```swift
/// let result = cache.sweep()
/// print("evicted \(result.evictedEntries), expired \(result.expiredEntries)")
/// ```
public struct DiskCacheSweepResult: Sendable, Equatable {
    /// Entries removed because they were older than the cache's `maxAge`.
    public var expiredEntries = 0
    /// Entries removed, least recently used first, to get down to the sweep target.
    public var evictedEntries = 0
    /// Bytes of all removed entry files.
    public var removedBytes = 0
    /// Abandoned temporary files and purge folders removed from `tmp/`.
    public var removedTemporaryFiles = 0
    /// Entries left after the sweep.
    public var remainingEntries = 0
    /// Bytes left after the sweep.
    public var remainingBytes = 0

    /// A result with every count zero, filled in by the sweep.
    public init() {}
}

// MARK: - DiskCacheSourceSummary

/// One source group of a ``DiskCache`` folder, for listings (`darkroom cache list`).
///
/// ```swift
/// for group in cache.sources() { print(group.source ?? group.sourceDigest, group.entries) }
/// ```
public struct DiskCacheSourceSummary: Sendable, Equatable {
    /// The group folder's name: `CacheKey/sourceDigest`.
    public var sourceDigest: String
    /// The source key, or `nil` for the group of plain string keys (stored through
    /// `KeyValueCache`) or when the group's `source` file is missing.
    public var source: String?
    /// The salt the entries were stored with, when ``source`` is known.
    public var salt: Int?
    /// Entries in the group.
    public var entries: Int
    /// Size in bytes of the group's entry files.
    public var bytes: Int
}
