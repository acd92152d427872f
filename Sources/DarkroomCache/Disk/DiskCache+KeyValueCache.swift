import DarkroomCore

// MARK: - KeyValueCache (plain string keys)

/// ``DiskCache`` as an ``KeyValueCache`` of encoded entries under opaque string keys.
///
/// The keys are hashed, never parsed, and live in one group of their own (their source is
/// unknown), so ``DiskCache/removeAll(forSource:salt:)`` cannot reach them; everything else —
/// verification, LRU, limits, statistics — is the same as for ``CacheKey``s. Prefer the
/// ``CacheKey`` API when the source is known.
///
/// ```swift
/// let cache: any KeyValueCache<DiskCacheEntry> = try DiskCache(directory: folder)
/// cache.insert(DiskCacheEntry(bytes: png, format: .png), forKey: "thumb/42")
/// cache.value(forKey: "thumb/42")?.format // .png
/// ```
extension DiskCache: KeyValueCache {
    public func value(forKey key: String) -> DiskCacheEntry? {
        lookUp(DiskCacheAddress(opaqueKey: key))
    }

    /// Stores `value`; a failure to store is not reported (see ``DiskCache/store(_:for:)-(DiskCacheEntry,_)``).
    public func insert(_ value: DiskCacheEntry, forKey key: String) {
        try? write(value, at: DiskCacheAddress(opaqueKey: key))
    }

    public func removeValue(forKey key: String) {
        removeEntry(at: DiskCacheAddress(opaqueKey: key))
    }
}
