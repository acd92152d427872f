import DarkroomCore

// MARK: - CacheLayer

/// One configured cache layer: its table name (`memory`, `disk`, `shared`, …), its kind and
/// the cache the kind's factory built.
///
/// ```swift
/// let layer = CacheLayer(name: "memory", kind: "memory", cache: EncodedImageMemoryCache())
/// ```
public struct CacheLayer: Sendable {
    /// The `[caches.NAME]` table's name: what `X-Darkroom-Cache` and the metrics report.
    public let name: String
    /// The registered kind that built it (`type`, else the name).
    public let kind: String
    /// The cache that stores and answers this layer's entries.
    public let cache: any ImageCache
    /// Whether fetched originals of remote sources are kept here too (`originals = true`).
    public let storesOriginals: Bool

    /// Creates a layer named `name` over `cache`; `kind` defaults to the name, and
    /// `storesOriginals` says whether fetched originals of remote sources are kept here too.
    public init(name: String, kind: String? = nil, cache: any ImageCache, storesOriginals: Bool = false) {
        self.name = name
        self.kind = kind ?? name
        self.cache = cache
        self.storesOriginals = storesOriginals
    }
}

// MARK: - CacheLayers

/// The render caches, as an ordered list of layers (the `[caches.*]` tables in file order).
///
/// - **Lookups** go through the layers in order; a hit is copied into the layers above it.
///   The leading layers that answer immediately (memory) are asked on the caller's thread
///   with ``immediateValue(for:)``; the rest with ``value(for:skippingImmediate:observe:)``.
/// - **Stores** go to every layer.
/// - **Failures** of a layer (down, timed out) are misses: they are reported to the observer,
///   never thrown.
///
/// ```swift
/// let caches = CacheLayers([
///     CacheLayer(name: "memory", cache: EncodedImageMemoryCache()),
///     CacheLayer(name: "disk", cache: try DiskCache(directory: folder)),
/// ])
/// if let (hit, layer) = await caches.value(for: key) { print("from \(layer)") }
/// ```
public struct CacheLayers: Sendable {
    /// The layers, in lookup order (first asked first).
    public let layers: [CacheLayer]
    /// How many leading layers answer immediately.
    private let immediateCount: Int

    /// Creates the layer list from `layers`, in lookup order.
    public init(_ layers: [CacheLayer]) {
        self.layers = layers
        self.immediateCount = layers.prefix { $0.cache.answersImmediately }.count
    }

    /// No caches: every lookup misses, stores are dropped.
    public static let none = CacheLayers([])

    /// Whether there are no layers (every lookup misses, stores are dropped).
    public var isEmpty: Bool { layers.isEmpty }

    /// Whether any layer answers immediately (a memory-hit path exists).
    public var hasImmediateLayer: Bool { immediateCount > 0 }

    /// Whether any layer must be waited for (disk, network): only then do lookups and stores
    /// need the I/O threads.
    public var hasWaitingLayers: Bool { layers.count > immediateCount }

    /// The layer named `name`.
    public subscript(name: String) -> CacheLayer? { layers.first { $0.name == name } }

    /// The first layer whose cache is a `T` (the standard commands' statistics and sweeps).
    public func first<T: ImageCache>(_ type: T.Type) -> T? {
        layers.lazy.compactMap { $0.cache as? T }.first
    }

    /// The first layer that can lease renders (`RenderLeasing`): a cluster's shared layer.
    public var leasing: CacheLayer? { layers.first { $0.cache is any RenderLeasing } }

    /// The layer keeping fetched originals, if one does.
    public var originals: CacheLayer? { layers.first { $0.storesOriginals } }

    /// These layers, with the one named `name` keeping fetched originals too (as
    /// `originals = true` in its table does).
    public func keepingOriginals(in name: String) -> CacheLayers {
        CacheLayers(layers.map { layer in
            CacheLayer(name: layer.name, kind: layer.kind, cache: layer.cache, storesOriginals: layer.storesOriginals || layer.name == name)
        })
    }

    // MARK: - Lookups

    /// What a layer answered, for metrics and logs.
    public enum Outcome: Sendable {
        /// The layer had the value.
        case hit
        /// The layer did not have the value.
        case miss
        /// The layer could not answer (down, timed out); counted as a miss.
        case failed(any Error)

        /// `hit`, `miss`, `timeout` (an error that says it is one, `CacheLayerError`) or
        /// `error`: the metrics' label.
        public var label: String {
            switch self {
            case .hit: "hit"
            case .miss: "miss"
            case let .failed(error): (error as? any CacheLayerError)?.isTimeout == true ? "timeout" : "error"
            }
        }
    }

    /// The value for `key` from the leading layers that answer immediately, with the name of
    /// the layer that had it; a hit in a lower one of them is copied into those above it.
    public func immediateValue(for key: CacheKey) -> (CachedImage, layer: String)? {
        immediateValue(for: key, after: 0)
    }

    /// ``immediateValue(for:)`` asking only the immediate layers from index `first` on (the
    /// caller asked those before itself); a hit is still copied into every layer above it.
    public func immediateValue(for key: CacheKey, after first: Int) -> (CachedImage, layer: String)? {
        guard first < immediateCount else { return nil }
        for index in first..<immediateCount {
            let layer = layers[index]
            guard let hit = layer.cache.immediateValue(for: key) else { continue }
            for above in layers[..<index] {
                above.cache.storeImmediately(hit, for: key)
            }
            return (hit, layer.name)
        }
        return nil
    }

    /// The value for `key` from the first layer that has it, with that layer's name; the hit
    /// is stored in every layer above it. With `skippingImmediate`, the immediate layers
    /// (already asked by ``immediateValue(for:)``) are not asked again, but are still filled.
    public func value(
        for key: CacheKey, skippingImmediate: Bool = false,
        observe: (_ layer: String, _ outcome: Outcome) -> Void = { _, _ in }
    ) async -> (CachedImage, layer: String)? {
        for index in layers.indices {
            let layer = layers[index]
            if skippingImmediate, index < immediateCount { continue }
            let hit: CachedImage?
            do {
                hit = try await layer.cache.value(for: key)
            } catch {
                observe(layer.name, .failed(error))
                continue
            }
            guard let hit else {
                observe(layer.name, .miss)
                continue
            }
            observe(layer.name, .hit)
            let filled = digestedForFilling(hit, above: index)
            await fill(filled, for: key, above: index)
            return (filled, layer.name)
        }
        return nil
    }

    // MARK: - Storing and removing

    /// Stores a hit of the layer at `index` in every layer above it (failures only lose entries).
    /// Callers pass the value through ``digestedForFilling(_:above:)`` first.
    func fill(_ image: CachedImage, for key: CacheKey, above index: Int) async {
        for above in layers[..<index] {
            try? await above.cache.store(image, for: key)
        }
    }

    /// `image` with its digest computed when it is about to be copied into an immediate
    /// layer (which every layer above `index` is when there are any): a memory hit then never
    /// hashes its bytes (``ContentDigest``).
    func digestedForFilling(_ image: CachedImage, above index: Int) -> CachedImage {
        index > 0 && immediateCount > 0 ? image.digested() : image
    }

    /// The position of the layer named `name`, if any.
    func index(of name: String) -> Int? { layers.firstIndex { $0.name == name } }

    /// Stores `image` in the leading layers that answer immediately, without waiting.
    public func storeImmediately(_ image: CachedImage, for key: CacheKey) {
        for layer in layers.prefix(immediateCount) { layer.cache.storeImmediately(image, for: key) }
    }

    /// Stores `image` in every layer (with `skippingImmediate`, in those after the leading
    /// immediate ones, which ``storeImmediately(_:for:)`` filled); returns the failures by
    /// layer name (a failed store only loses a cache entry, never the render).
    @discardableResult
    public func store(
        _ image: CachedImage, for key: CacheKey, skippingImmediate: Bool = false
    ) async -> [(layer: String, error: any Error)] {
        var failures: [(layer: String, error: any Error)] = []
        for (index, layer) in layers.enumerated() where !(skippingImmediate && index < immediateCount) {
            do {
                try await layer.cache.store(image, for: key)
            } catch {
                failures.append((layer.name, error))
            }
        }
        return failures
    }

    /// Removes every render of the source keyed `source` from every layer: per layer, how
    /// many entries went, or why it could not.
    public func removeAll(forSource source: String) async -> [(layer: String, removed: Result<Int, any Error>)] {
        var results: [(layer: String, removed: Result<Int, any Error>)] = []
        for layer in layers {
            do {
                results.append((layer.name, .success(try await layer.cache.removeAll(forSource: source))))
            } catch {
                results.append((layer.name, .failure(error)))
            }
        }
        return results
    }
}
