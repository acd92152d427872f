// MARK: - ImageCache

/// One layer of the render caches: an in-process memory, a folder on disk, a network store
/// (memcached, Redis, S3). The engine knows layers only through this protocol; `filters.d/`
/// chooses them (`[caches.NAME] type = "…"`) and the registry builds them in file order.
///
/// Contract:
/// - **Misses, not errors.** A missing, expired, corrupt or foreign value is a miss (`nil`).
///   A thrown error is counted and logged by the engine and then treated as a miss: a cache
///   never fails a request. A layer that cannot answer quickly should time out and throw.
/// - **Keys** are ``CacheKey``s; a layer may hash ``CacheKey/string`` but must keep its
///   ``CacheKey/source`` reachable if it supports ``removeAll(forSource:)``.
/// - **Immediate answers.** A layer that answers without waiting (memory) returns
///   ``answersImmediately`` `true` and implements ``immediateValue(for:)``: the engine asks it
///   on the caller's thread before any task starts (the memory-hit path).
/// - **Blocking.** The async methods may block briefly (a file read): the engine calls them
///   from its own I/O threads, never from the cooperative pool.
/// - **Threading.** Implementations are `Sendable` classes (as Nuke's `ImageCaching` is: a
///   layer is shared state, and a class-bound existential is copied with one retain on the
///   memory-hit path, where a value-type existential cost a runtime value-witness call); every
///   method may be called concurrently.
///
/// ```swift
/// if let hit = try await cache.value(for: key) { return hit.bytes }
/// try await cache.store(CachedImage(bytes: png, format: .png), for: key)
/// ```
public protocol ImageCache: AnyObject, Sendable {
    /// Whether ``immediateValue(for:)`` answers for this layer (default `false`).
    var answersImmediately: Bool { get }

    /// The value for `key` without waiting, for layers that ``answersImmediately``; others
    /// return `nil` (the default).
    func immediateValue(for key: CacheKey) -> CachedImage?

    /// Stores `image` without waiting, for layers that ``answersImmediately`` (a hit in a
    /// lower immediate layer fills this one on the caller's thread); others ignore it (the
    /// default).
    func storeImmediately(_ image: CachedImage, for key: CacheKey)

    /// The value for `key`, or `nil` on a miss.
    /// - Throws: when the layer could not answer (down, timed out): the engine counts it as a miss.
    func value(for key: CacheKey) async throws -> CachedImage?

    /// Stores `image` under `key`, replacing any earlier value.
    /// - Throws: when it could not be stored (the render is served all the same).
    func store(_ image: CachedImage, for key: CacheKey) async throws

    /// Removes the value for `key`, if any.
    func removeValue(for key: CacheKey) async throws

    /// Removes every value rendered from the source whose key is `source`; returns how many
    /// (or `0` when the layer cannot count them).
    /// - Throws: ``CacheOperationUnsupported`` when the layer cannot find a source's values
    ///   (the default), or the layer's own error.
    func removeAll(forSource source: String) async throws -> Int

    /// Removes every value.
    /// - Throws: ``CacheOperationUnsupported`` when the layer cannot (the default).
    func removeAll() async throws
}

extension ImageCache {
    public var answersImmediately: Bool { false }

    public func immediateValue(for key: CacheKey) -> CachedImage? { nil }

    public func storeImmediately(_ image: CachedImage, for key: CacheKey) {}

    public func removeAll(forSource source: String) async throws -> Int {
        throw CacheOperationUnsupported(operation: "purge by source", cache: String(describing: Self.self))
    }

    public func removeAll() async throws {
        throw CacheOperationUnsupported(operation: "purge", cache: String(describing: Self.self))
    }
}

// MARK: - CacheOperationUnsupported

/// A cache layer's answer to an operation it cannot do (e.g. a purge by source on a store
/// that cannot list keys).
public struct CacheOperationUnsupported: Error, CustomStringConvertible, Sendable {
    /// The operation the layer cannot do, e.g. `"purge by source"`.
    public var operation: String
    /// The name of the cache layer's type.
    public var cache: String

    /// Builds the error for `operation` refused by the layer named `cache`.
    public init(operation: String, cache: String) {
        self.operation = operation
        self.cache = cache
    }

    public var description: String { "\(cache) cannot \(operation)" }
}

// MARK: - CacheLayerError

/// An error a cache layer throws that can say whether it was a timeout (the layer gave up
/// waiting for its store): the engine counts those as `timeout` rather than `error`.
///
/// ```swift
/// struct StoreError: CacheLayerError { var isTimeout: Bool }
/// ```
public protocol CacheLayerError: Error {
    /// Whether the layer gave up waiting for its store (counted as a `timeout`, not an `error`).
    var isTimeout: Bool { get }
}
