// MARK: - KeyValueCache

/// An in-process key–value cache under plain string keys: the small synchronous contract of
/// AlamofireImage's `ImageRequestCache` (decoded ``Image``s in memory, encoded entries on
/// disk). The render engine does not use it; it talks to ``ImageCache``.
///
/// Contract:
/// - **Keys** are never interpreted beyond hashing.
/// - **Misses, not errors.** A missing, expired or corrupt entry is a miss (`nil`); a corrupt
///   entry is removed. Failing to store is not an error for the caller.
/// - **Threading.** Implementations are thread-safe; all methods may be called from any
///   thread at once, and are fast enough to call without hopping executors.
///
/// ```swift
/// cache.insert(image, forKey: "avatar/42")
/// let hit = cache.value(forKey: "avatar/42")
/// ```
public protocol KeyValueCache<Value>: Sendable {
    /// The type of the cached values, e.g. a decoded ``Image`` or encoded bytes.
    associatedtype Value: Sendable

    /// The cached value, or `nil` on a miss.
    func value(forKey key: String) -> Value?

    /// Stores `value`, replacing any previous value for `key`.
    func insert(_ value: Value, forKey key: String)

    /// Removes the value for `key`, if any.
    func removeValue(forKey key: String)

    /// Removes everything.
    func removeAll()
}
