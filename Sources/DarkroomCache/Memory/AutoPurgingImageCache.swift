import DarkroomCore
import Synchronization

// MARK: - AutoPurgingImageCache

/// An in-memory image cache bounded by the bytes of its pixels, purging the least recently
/// accessed images when it fills up — the contract of AlamofireImage's cache of the same name.
///
/// - **Cost.** An image costs its `DarkroomCore/Image/byteCount` (`width * height * 4`).
/// - **Purging.** When an insert takes ``memoryUsage`` past ``memoryCapacity``, the least
///   recently accessed images are removed until usage is at most
///   ``preferredMemoryUsageAfterPurge``. The image just inserted is never purged by its own
///   insert: if it alone is larger than the after-purge target, it stays and usage ends at
///   its cost (still within capacity).
/// - **Oversize images.** An image larger than ``memoryCapacity`` is not stored (and any
///   previous image under its identifier is removed, so a stale image is never served).
/// - **Access order.** Every hit makes the image the most recently accessed.
/// - **Sources.** Each entry may belong to a source (the key of the original image), so
///   ``removeImages(forSource:)`` drops every variant of one source in time proportional to
///   their number. An entry's source is the `source:` argument of
///   ``add(_:withIdentifier:source:)``, the `source` of ``add(_:for:withIdentifier:)``, or
///   `CacheKey/source` for ``add(_:forKey:)``. Entries stored through `KeyValueCache`'s
///   ``insert(_:forKey:)`` have no source.
/// - **Threads.** Every method may be called from any thread; one `Mutex` guards the state,
///   and every operation under it is O(1) except removing a source's entries (O(entries
///   removed)) and the purge itself (O(entries purged)). Images leaving the cache are
///   released after the lock is dropped.
///
/// ```swift
/// let cache = AutoPurgingImageCache(memoryCapacity: 200 << 20, preferredMemoryUsageAfterPurge: 150 << 20)
/// cache.add(thumbnail, for: "/photos/cat.jpg", withIdentifier: "thumb-256")
/// cache.image(for: "/photos/cat.jpg", withIdentifier: "thumb-256")   // thumbnail
/// cache.removeImages(forSource: "/photos/cat.jpg")                    // 1: every variant of the source
/// ```
public final class AutoPurgingImageCache: KeyValueCache, Sendable {
    public typealias Value = Image

    /// The most bytes of pixels the cache holds after any insert.
    public let memoryCapacity: Int
    /// The usage a purge brings the cache down to.
    public let preferredMemoryUsageAfterPurge: Int

    /// Everything the lock guards.
    struct State: Sendable {
        var store = CostLRUStore<String, String, Image>()
        var hits = 0
        var misses = 0
        var insertions = 0
        var evictions = 0
        var rejections = 0
    }

    let state = Mutex(State())

    /// Creates an empty cache.
    ///
    /// ```swift
    /// let cache = AutoPurgingImageCache()   // 100 MiB, purging down to 60 MiB
    /// ```
    /// - Precondition: `0 <= preferredMemoryUsageAfterPurge <= memoryCapacity`.
    public init(
        memoryCapacity: Int = 100 * 1024 * 1024,
        preferredMemoryUsageAfterPurge: Int = 60 * 1024 * 1024
    ) {
        precondition(
            memoryCapacity >= preferredMemoryUsageAfterPurge,
            "memoryCapacity (\(memoryCapacity)) must be at least preferredMemoryUsageAfterPurge (\(preferredMemoryUsageAfterPurge))")
        precondition(preferredMemoryUsageAfterPurge >= 0, "preferredMemoryUsageAfterPurge must not be negative")
        self.memoryCapacity = memoryCapacity
        self.preferredMemoryUsageAfterPurge = preferredMemoryUsageAfterPurge
    }

    // MARK: - Adding

    /// Stores `image` under `identifier`, replacing any image there, and purges if the
    /// cache is now over capacity.
    ///
    /// ```swift
    /// cache.add(image, withIdentifier: "avatar-42", source: "/users/42.png")
    /// ```
    /// - Parameters:
    ///   - image: the decoded image; its byte count is its cost.
    ///   - identifier: the key it is found by (a variant's identifier and its source, say).
    ///   - source: the source the image was rendered from, for
    ///     ``removeImages(forSource:)``; `nil` for none.
    public func add(_ image: Image, withIdentifier identifier: String, source: String? = nil) {
        let cost = image.byteCount
        let capacity = memoryCapacity
        let target = preferredMemoryUsageAfterPurge
        // The images that leave the cache come back out of the lock and are released
        // only when `_` drops them, after the lock is free.
        _ = state.withLock { state -> [Image] in
            state.insertions += 1
            let outcome = state.store.insertPurging(
                image, cost: cost, forKey: identifier, group: source, capacity: capacity, target: target)
            state.evictions += outcome.evictions
            if outcome.rejected { state.rejections += 1 }
            return outcome.leaving
        }
    }

    // MARK: - Reading

    /// The image stored under `identifier`, now the most recently accessed; `nil` on a miss.
    ///
    /// ```swift
    /// if let hit = cache.image(withIdentifier: "avatar-42") { serve(hit) }
    /// ```
    public func image(withIdentifier identifier: String) -> Image? {
        state.withLock { state in
            let image = state.store.value(forKey: identifier)
            if image == nil { state.misses += 1 } else { state.hits += 1 }
            return image
        }
    }

    /// The bytes of pixels held now.
    public var memoryUsage: Int { state.withLock { $0.store.totalCost } }

    /// The number of images held now.
    public var count: Int { state.withLock { $0.store.count } }

    // MARK: - Removing

    /// Removes the image stored under `identifier`.
    ///
    /// ```swift
    /// cache.removeImage(withIdentifier: "avatar-42")   // true if it was there
    /// ```
    /// - Returns: whether there was one.
    @discardableResult
    public func removeImage(withIdentifier identifier: String) -> Bool {
        state.withLock { $0.store.removeValue(forKey: identifier) } != nil
    }

    /// Removes every image of `source` (all its variants), leaving other sources' images.
    ///
    /// ```swift
    /// cache.removeImages(forSource: "/photos/cat.jpg")   // the source file changed
    /// ```
    /// - Returns: the number of images removed.
    @discardableResult
    public func removeImages(forSource source: String) -> Int {
        state.withLock { $0.store.removeGroup(source) }.count
    }

    /// Removes every image and gives their memory back.
    ///
    /// ```swift
    /// cache.removeAllImages()
    /// ```
    /// - Returns: whether there was any image.
    @discardableResult
    public func removeAllImages() -> Bool {
        removeAllImagesCounting() > 0
    }

    /// Removes every image; the old store is released after the lock is dropped.
    /// - Returns: the number of images removed.
    func removeAllImagesCounting() -> Int {
        state.withLock { state -> CostLRUStore<String, String, Image> in
            var old = CostLRUStore<String, String, Image>()
            swap(&old, &state.store)
            return old
        }.count
    }

    /// Empties the cache in answer to memory pressure: what an embedding app calls when the
    /// system runs short (see also ``purgeOnSignal(_:queue:onPurge:)``).
    ///
    /// ```swift
    /// cache.purgeAll()
    /// ```
    public func purgeAll() {
        removeAllImages()
    }

    // MARK: - KeyValueCache

    /// ``image(withIdentifier:)`` under the `KeyValueCache` name.
    public func value(forKey key: String) -> Image? { image(withIdentifier: key) }

    /// ``add(_:withIdentifier:source:)`` with no source, under the `KeyValueCache` name.
    public func insert(_ value: Image, forKey key: String) { add(value, withIdentifier: key) }

    /// ``removeImage(withIdentifier:)`` under the `KeyValueCache` name.
    public func removeValue(forKey key: String) { removeImage(withIdentifier: key) }

    /// ``removeAllImages()`` under the `KeyValueCache` name.
    public func removeAll() { removeAllImages() }

    // MARK: - Internals for tests

    /// Throws if the store's structure is broken or usage exceeds the capacity.
    func validateInvariants() throws(CacheInvariantViolation) {
        let capacity = memoryCapacity
        try state.withLock { state throws(CacheInvariantViolation) in
            try state.store.validateInvariants()
            guard state.store.totalCost <= capacity else {
                throw CacheInvariantViolation(description: "usage \(state.store.totalCost) over capacity \(capacity)")
            }
        }
    }

    /// Identifiers from the most to the least recently accessed.
    var identifiersByRecency: [String] { state.withLock { $0.store.keysByRecency } }

    /// The identifiers of `source`'s entries.
    func identifiers(forSource source: String) -> [String] { state.withLock { $0.store.keys(inGroup: source) } }
}
