import Synchronization

// MARK: - Statistics

extension AutoPurgingImageCache {
    /// Counters of a cache since it was created, and its contents now.
    ///
    /// ```swift
    /// let stats = cache.statistics
    /// print("hit rate \(stats.hitRate), \(stats.entries) images, \(stats.bytes) bytes")
    /// ```
    public struct Statistics: Sendable, Hashable, CustomStringConvertible {
        /// Lookups that found an image.
        public var hits: Int
        /// Lookups that found nothing.
        public var misses: Int
        /// Calls that stored an image (including replacements and rejections).
        public var insertions: Int
        /// Images purged to bring usage back under the capacity. Explicit removals,
        /// removals by source and ``AutoPurgingImageCache/purgeAll()`` are not evictions.
        public var evictions: Int
        /// Images not stored because each alone was larger than the capacity.
        public var rejections: Int
        /// Images held now.
        public var entries: Int
        /// Bytes of pixels held now.
        public var bytes: Int

        /// Creates statistics with the given counters and contents.
        public init(hits: Int, misses: Int, insertions: Int, evictions: Int, rejections: Int, entries: Int, bytes: Int) {
            self.hits = hits
            self.misses = misses
            self.insertions = insertions
            self.evictions = evictions
            self.rejections = rejections
            self.entries = entries
            self.bytes = bytes
        }

        /// `hits / (hits + misses)`, or 0 before any lookup.
        public var hitRate: Double {
            let lookups = hits + misses
            return lookups == 0 ? 0 : Double(hits) / Double(lookups)
        }

        public var description: String {
            "\(entries) images, \(bytes) bytes; \(hits) hits, \(misses) misses, \(insertions) insertions, "
                + "\(evictions) evictions, \(rejections) rejections"
        }
    }

    /// A consistent snapshot of the counters and contents.
    public var statistics: Statistics {
        state.withLock { state in
            Statistics(
                hits: state.hits, misses: state.misses, insertions: state.insertions,
                evictions: state.evictions, rejections: state.rejections,
                entries: state.store.count, bytes: state.store.totalCost)
        }
    }
}
