// MARK: - ImageCache

/// A key–value cache of rendered images (decoded ``Image``s in memory, encoded bytes on disk).
///
/// Contract:
/// - **Keys** are canonical strings built from the source key, the variant identifier and
///   a version salt; a cache never interprets them beyond hashing.
/// - **Misses, not errors.** A missing, expired or corrupt entry is a miss (`nil`); a corrupt
///   entry is removed. Failing to store is not an error for the caller.
/// - **Threading.** Implementations are thread-safe; all methods may be called from any
///   thread at once, and are fast enough to call without hopping executors.
///
/// ```swift
/// cache.insert(image, forKey: key)
/// let hit = cache.value(forKey: key)
/// ```
public protocol ImageCache<Value>: Sendable {
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
