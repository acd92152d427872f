import Darkroom
import Foundation
import Synchronization

// MARK: - Generations

/// Purging a source on the shared layer, without listing keys: every entry carries its
/// source's generation (16 random bytes kept in `darkroom:gen:` + the source's SHA-256), read
/// in the same request as the entry. A purge writes a new generation, so every server stops
/// serving the older entries at once; they expire or are evicted in their time.
///
/// A missing generation (never written, or evicted) is a miss for every entry of the source,
/// and the next store writes a fresh one, so an evicted generation can never bring back an
/// entry purged before it.
extension MemcachedCache {
    static func generationName(_ source: String) -> String { "darkroom:gen:" + CacheKey.sha256Hex(source) }

    /// The source's generation, made when it has none (by `add`: racing servers agree on one).
    func generation(of source: String) throws -> [UInt8] {
        let item = Self.generationName(source)
        for _ in 0..<3 {
            if let current = try getMany("get", [item])[0], current.count == MemcachedEntry.generationLength {
                return current
            }
            let fresh = Self.freshGeneration()
            if try write("add", item, fresh, expiry: 0, onlyIfAbsent: true) { return fresh }
        }
        throw MemcachedError(operation: "get", message: "the generation of \(source) keeps changing")
    }

    /// A new random generation.
    static func freshGeneration() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<MemcachedEntry.generationLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    // MARK: - Purging

    /// Makes every entry of `source` a miss on every server (a new generation), and logs the
    /// purge so that every server drops the source from its own layers (`PurgeLog`).
    /// Returns `0`: memcached cannot count the entries.
    ///
    /// `async` like the requirement (it blocks for one round trip or two): a synchronous
    /// version would lose to `ImageCache`'s default in async code calling it on the class.
    public func removeAll(forSource source: String) async throws -> Int {
        _ = try write("set", Self.generationName(source), Self.freshGeneration(), expiry: 0)
        let position = try increment(Self.purgeCounterName, initial: 1)
        _ = try write("set", Self.purgeEntryName(position), Array(source.utf8), expiry: Self.purgeEntryLifetime)
        counts.withLock { $0.purges += 1 }
        return 0
    }
}

// MARK: - RecentGenerations

/// The generations recent lookups read, by source, kept ``lifetime`` seconds at most and
/// ``capacity`` sources at most: the render that follows a miss stores its entry with the
/// generation its lookup saw, without reading it again.
///
/// This is also the right generation to keep: a purge made while the render ran changes the
/// source's generation, and the entry, tagged with the older one, is never served — where a
/// generation read at store time would mark a render of the purged bytes as current.
final class RecentGenerations: Sendable {
    static let lifetime: Duration = .seconds(30)
    static let capacity = 4096
    private let entries = Mutex<[String: (generation: [UInt8], seen: ContinuousClock.Instant)]>([:])

    func remember(_ generation: [UInt8], of source: String) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { now - $0.value.seen < Self.lifetime }
                if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[source] = (generation, now)
        }
    }

    /// The generation a lookup of `source` read in the last ``lifetime`` seconds.
    func recent(of source: String) -> [UInt8]? {
        entries.withLock { entries in
            guard let entry = entries[source], ContinuousClock.now - entry.seen < Self.lifetime else { return nil }
            return entry.generation
        }
    }
}

// MARK: - PurgeLog

/// The log is a counter (`darkroom:purges`) and one item per purge (`darkroom:purge:N`, the
/// source key, kept an hour). A follower more than ``purgeLogWindow`` purges behind, or one
/// that finds an entry missing for longer than a purge takes to write, is told to drop
/// everything (`sources` `nil`).
extension MemcachedCache: PurgeLog {
    static let purgeCounterName = "darkroom:purges"
    static let purgeEntryLifetime = 3600
    static let purgeLogWindow: UInt64 = 256
    static func purgeEntryName(_ position: UInt64) -> String { "darkroom:purge:\(position)" }

    public func purgeLogPosition() throws -> UInt64 {
        try counter()
    }

    public func purges(after position: UInt64) throws -> PurgeLogPage {
        let newest = try counter()
        if newest == position { return PurgeLogPage(position: position, sources: []) }
        // The counter went back (memcached restarted, the item was evicted) or ran far ahead.
        guard newest > position, newest - position <= Self.purgeLogWindow else {
            return PurgeLogPage(position: newest, sources: nil)
        }
        let positions = Array((position + 1)...newest)
        let entries = try getMany("get", positions.map(Self.purgeEntryName))
        var sources: [String] = []
        for (offset, entry) in entries.enumerated() {
            guard let entry else {
                // Counted but not written yet (the purging server is between its two writes),
                // or lost: wait a moment for it, then give up on the log.
                if awaitsPurgeEntry(positions[offset]) {
                    return PurgeLogPage(position: offset == 0 ? position : positions[offset - 1], sources: sources)
                }
                return PurgeLogPage(position: newest, sources: nil)
            }
            sources.append(String(decoding: entry, as: UTF8.self))
        }
        return PurgeLogPage(position: newest, sources: sources)
    }

    private func counter() throws -> UInt64 {
        guard let value = try getMany("get", [Self.purgeCounterName])[0] else { return 0 }
        // memcached keeps counters as decimal text (possibly space-padded after a decrement).
        let text = String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard let number = UInt64(text) else {
            throw MemcachedError(operation: "get", message: "\(Self.purgeCounterName) is not a counter: \(text.prefix(40))")
        }
        return number
    }

    /// Whether a missing purge entry is still worth waiting for (missing for under a second).
    private func awaitsPurgeEntry(_ position: UInt64) -> Bool {
        let now = ContinuousClock.now
        return missingPurgeEntry.withLock { missing in
            if let (waitingFor, since) = missing, waitingFor == position {
                if now - since < .seconds(1) { return true }
                missing = nil
                return false
            }
            missing = (position, now)
            return true
        }
    }
}
