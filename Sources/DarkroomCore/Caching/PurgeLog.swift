// MARK: - PurgeLog

/// A cache layer shared by several processes that also keeps a log of the purges any of them
/// made, so that every process can drop the purged sources from its own layers (memory,
/// local disk) too: a purge through one server then holds on all of them within a poll.
///
/// A purge by source (``ImageCache/removeAll(forSource:)``) on the shared layer itself takes
/// effect at once for every process (memcached: a per-source generation folded into every
/// entry); the log is for the layers the other processes keep to themselves. The engine polls
/// ``purges(after:)`` and removes each purged source from its other layers.
///
/// Contract:
/// - Positions only grow while the log is intact. ``purges(after:)`` returns the sources
///   purged after a position and the position to ask from next.
/// - When the log cannot say what was purged (entries evicted, the store restarted, too many
///   purges since) it returns ``PurgeLogPage/sources`` `nil`: the follower must empty its own
///   layers, which is always safe.
/// - A layer that cannot answer (down, timed out) throws; the follower asks again later.
///
/// ```swift
/// var position = try await shared.purgeLogPosition()
/// let page = try await shared.purges(after: position)
/// for source in page.sources ?? [] { _ = try? await memory.removeAll(forSource: source) }
/// position = page.position
/// ```
public protocol PurgeLog: ImageCache {
    /// The position after the newest purge: a new follower starts from it.
    func purgeLogPosition() async throws -> UInt64

    /// The sources purged after `position` (their ``CacheKey/source`` keys), in order.
    func purges(after position: UInt64) async throws -> PurgeLogPage
}

// MARK: - PurgeLogPage

/// What ``PurgeLog/purges(after:)`` found.
public struct PurgeLogPage: Sendable, Hashable {
    /// Where to ask from next.
    public var position: UInt64
    /// The purged sources' keys; `nil` when the log lost some: drop everything local.
    public var sources: [String]?

    /// Builds a page: `position` to ask from next, and the purged `sources`, or `nil` when the log
    /// lost some.
    public init(position: UInt64, sources: [String]?) {
        self.position = position
        self.sources = sources
    }
}
