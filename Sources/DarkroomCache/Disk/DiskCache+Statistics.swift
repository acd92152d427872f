import Synchronization

// MARK: - Statistics and counters

extension DiskCache {
    /// Entries and bytes in the folder (from the cached scan; the first call scans) and the
    /// hit/miss totals of every process that has used the folder. Flushes this instance's
    /// counters first.
    public var statistics: DiskCacheStatistics {
        if !state.withLock({ $0.scanned }) { refresh() }
        return flushLock.withLock { _ in
            flushLocked()
            let totals = DiskCacheStatsFile.read(atPath: layout.statsPath)
            return state.withLock { state in
                DiskCacheStatistics(
                    entries: state.entries, bytes: state.bytes,
                    hits: totals.hits + state.pending.hits, misses: totals.misses + state.pending.misses)
            }
        }
    }

    /// Adds this instance's unflushed hit/miss counts to the folder's `stats` file.
    /// Happens on its own every 32 lookups and at deinit; call it before a process exits.
    public func flush() {
        flushLock.withLock { _ in flushLocked() }
    }

    private func flushLocked() {
        let delta = state.withLock { state in
            defer {
                state.pending = DiskCacheCounters()
                state.lookupsSinceFlush = 0
            }
            return state.pending
        }
        guard !delta.isZero else { return }
        if !DiskCacheStatsFile.add(delta, toFileAt: layout.statsPath) {
            // Keep the counts for the next flush rather than losing them.
            state.withLock { state in
                state.pending.hits += delta.hits
                state.pending.misses += delta.misses
            }
        }
    }

    func record(hit: Bool) {
        let due = state.withLock { state -> Bool in
            if hit { state.pending.hits += 1 } else { state.pending.misses += 1 }
            state.lookupsSinceFlush += 1
            return state.lookupsSinceFlush >= DiskCache.flushInterval
        }
        if due { flush() }
    }
}
