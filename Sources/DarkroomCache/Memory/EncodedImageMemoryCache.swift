import DarkroomCore
import Synchronization

// MARK: - EncodedImage

/// Encoded image bytes and their format: what is served over HTTP or written to a file (the
/// name this module used before cache layers shared `CachedImage`).
public typealias EncodedImage = CachedImage

// MARK: - EncodedImageMemoryCache

/// The memory layer for rendered, **encoded** variants (cost = encoded bytes), with the same
/// auto-purging contract as ``AutoPurgingImageCache``: past `memoryCapacity`, least-recently
/// accessed entries go until usage is at most `preferredMemoryUsageAfterPurge`. Keyed by
/// `CacheKey` so a source's entries can be purged together. Thread-safe.
///
/// ```swift
/// let memory = EncodedImageMemoryCache(memoryCapacity: 100 << 20, preferredMemoryUsageAfterPurge: 60 << 20)
/// memory.insert(EncodedImage(bytes: jpeg, format: .jpeg), for: key)
/// memory.value(for: key)?.format // .jpeg
/// ```
public final class EncodedImageMemoryCache: KeyValueCache, Sendable {
    public typealias Value = EncodedImage

    /// The most encoded bytes held before a purge starts (100 MiB by default); a value larger
    /// than this alone is not stored.
    public let memoryCapacity: Int
    /// The encoded bytes a purge brings usage down to (60 MiB by default).
    public let preferredMemoryUsageAfterPurge: Int

    /// Entries are keyed by the ``CacheKey`` itself, not its text: a hit hashes the key's
    /// parts instead of building `key.string` first (a fifth of a memory hit's time).
    enum EntryKey: Hashable, Sendable {
        case rendered(CacheKey)
        /// A ``KeyValueCache`` string key.
        case plain(String)
    }

    struct State: Sendable {
        var store = CostLRUStore<EntryKey, String, EncodedImage>()
        var hits = 0
        var misses = 0
        var evictions = 0
    }

    private let state = Mutex(State())

    /// - Precondition: `0 <= preferredMemoryUsageAfterPurge <= memoryCapacity`.
    public init(memoryCapacity: Int = 100 * 1024 * 1024, preferredMemoryUsageAfterPurge: Int = 60 * 1024 * 1024) {
        precondition(preferredMemoryUsageAfterPurge >= 0 && memoryCapacity >= preferredMemoryUsageAfterPurge,
                     "need 0 <= preferredMemoryUsageAfterPurge <= memoryCapacity")
        self.memoryCapacity = memoryCapacity
        self.preferredMemoryUsageAfterPurge = preferredMemoryUsageAfterPurge
    }

    // MARK: - By CacheKey

    public func value(for key: CacheKey) -> EncodedImage? { lookup(.rendered(key)) }

    /// Stores `value` under `key`, grouped by the key's source, purging least-recently accessed
    /// entries when usage passes ``memoryCapacity``.
    public func insert(_ value: EncodedImage, for key: CacheKey) { store(value, .rendered(key), group: key.source) }

    /// Removes the entry for `key`; returns whether there was one.
    @discardableResult
    public func remove(_ key: CacheKey) -> Bool { state.withLock { $0.store.removeValue(forKey: .rendered(key)) } != nil }

    /// Removes every entry rendered from `source`; returns how many.
    @discardableResult
    public func removeAll(forSource source: String) -> Int { state.withLock { $0.store.removeGroup(source) }.count }

    // MARK: - KeyValueCache

    public func value(forKey key: String) -> EncodedImage? { lookup(.plain(key)) }
    public func insert(_ value: EncodedImage, forKey key: String) { store(value, .plain(key), group: nil) }
    public func removeValue(forKey key: String) { _ = state.withLock { $0.store.removeValue(forKey: .plain(key)) } }
    public func removeAll() { state.withLock { $0.store.removeAll() } }

    // MARK: - Statistics

    /// The entries and encoded bytes held now, and the lookups that hit and missed and the
    /// entries purged since the cache was created.
    public var statistics: (entries: Int, bytes: Int, hits: Int, misses: Int, evictions: Int) {
        state.withLock { ($0.store.count, $0.store.totalCost, $0.hits, $0.misses, $0.evictions) }
    }

    // MARK: - Internals

    fileprivate func lookup(_ key: EntryKey) -> EncodedImage? {
        state.withLock { state in
            let value = state.store.value(forKey: key)
            if value == nil { state.misses += 1 } else { state.hits += 1 }
            return value
        }
    }

    private func store(_ value: EncodedImage, _ key: EntryKey, group: String?) {
        let capacity = memoryCapacity, target = preferredMemoryUsageAfterPurge
        _ = state.withLock { state -> [EncodedImage] in
            let outcome = state.store.insertPurging(
                value, cost: value.bytes.count, forKey: key, group: group, capacity: capacity, target: target)
            state.evictions += outcome.evictions
            return outcome.leaving
        }
    }
}

// MARK: - ImageCache

/// The memory layer answers immediately: a hit is one lock and one dictionary lookup.
extension EncodedImageMemoryCache: ImageCache {
    public var answersImmediately: Bool { true }

    public func immediateValue(for key: CacheKey) -> CachedImage? { lookup(.rendered(key)) }

    public func storeImmediately(_ image: CachedImage, for key: CacheKey) { insert(image, for: key) }

    public func store(_ image: CachedImage, for key: CacheKey) { insert(image, for: key) }

    public func removeValue(for key: CacheKey) { remove(key) }
}
