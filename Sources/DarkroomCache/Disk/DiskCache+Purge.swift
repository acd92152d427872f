import DarkroomCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// MARK: - Purging

extension DiskCache {
    /// Removes every entry of `source` stored with `salt` (all its renders and its original).
    /// The source's folder is renamed out of the tree in one step, so lookups in any process
    /// miss from that instant on; a store racing with the purge either lands before it (and
    /// is purged) or after it (and is kept).
    /// - Returns: the number of entries removed.
    ///
    /// ```swift
    /// cache.removeAll(forSource: "/photos/cat.jpg") // 7
    /// ```
    @discardableResult
    public func removeAll(forSource source: String) -> Int {
        removeAll(forSource: source, salt: CacheKey.currentSalt)
    }

    /// ``removeAll(forSource:)`` for the keys of another salt (renders of an older Darkroom).
    @discardableResult
    public func removeAll(forSource source: String, salt: Int) -> Int {
        let digest = CacheKey.original(source: source, salt: salt).sourceDigest
        let removal = purge(layout.groupFolder(digest: digest))
        adjustEstimate(entries: -removal.entries, bytes: -removal.entryBytes)
        return removal.entries
    }

    /// Removes every entry (the `stats` totals are kept). Atomic for lookups, like
    /// ``removeAll(forSource:salt:)``.
    public func removeAll() {
        purge(layout.entriesRoot)
        DiskFiles.makeDirectories(layout.entriesRoot)
        state.withLock { state in
            state.scanned = true
            state.entries = 0
            state.bytes = 0
        }
    }

    /// Moves `folder` into `tmp/` and deletes it there; deletes it in place if it cannot be moved.
    @discardableResult
    private func purge(_ folder: String) -> DiskFiles.Removal {
        let trash = layout.newPurgePath()
        if rename(folder, trash) != 0 {
            let failure = errno
            if failure == ENOENT, DiskFiles.status(atPath: folder) == nil { return DiskFiles.Removal() }
            return DiskFiles.removeTree(folder)
        }
        return DiskFiles.removeTree(trash)
    }
}
