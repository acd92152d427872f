#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// MARK: - Scanning

/// One entry file seen by a scan.
struct DiskCacheScannedEntry {
    var path: String
    var status: DiskFiles.Status
}

/// One source group folder seen by a scan.
struct DiskCacheScannedGroup {
    var digest: String
    var folder: String
    var entries: [DiskCacheScannedEntry]
}

extension DiskCache {
    /// Every group folder and entry file under `v1/`, from `readdir` and `lstat` alone
    /// (no entry is opened).
    func scanGroups() -> [DiskCacheScannedGroup] {
        var groups: [DiskCacheScannedGroup] = []
        for prefix in DiskFiles.list(layout.entriesRoot) ?? [] {
            let prefixFolder = layout.entriesRoot + "/" + prefix
            for digest in DiskFiles.list(prefixFolder) ?? [] {
                let folder = prefixFolder + "/" + digest
                var entries: [DiskCacheScannedEntry] = []
                for name in DiskFiles.list(folder) ?? [] where name.hasSuffix(DiskCacheLayout.entrySuffix) {
                    let path = folder + "/" + name
                    guard let status = DiskFiles.status(atPath: path), status.isRegularFile else { continue }
                    entries.append(DiskCacheScannedEntry(path: path, status: status))
                }
                groups.append(DiskCacheScannedGroup(digest: digest, folder: folder, entries: entries))
            }
        }
        return groups
    }

    /// Rescans the folder for ``statistics``' `entries` and `bytes` (which otherwise only
    /// follow this instance's own changes), picking up other processes' writes.
    public func refresh() {
        let entries = scanGroups().flatMap(\.entries)
        let bytes = entries.reduce(0) { $0 + $1.status.size }
        state.withLock { state in
            state.scanned = true
            state.entries = entries.count
            state.bytes = bytes
        }
    }

    // MARK: - Sweeping

    /// Removes, in this order: entries older than `maxAge`; least recently used entries until
    /// the folder is at most `sweepTarget × limit`; temp files and purge folders abandoned for
    /// more than five minutes; emptied source folders. Waits for a sweep running in another
    /// process or thread to finish first. An entry used or replaced since the scan is kept.
    @discardableResult
    public func sweep() -> DiskCacheSweepResult {
        sweep(waitingForOthers: true) ?? DiskCacheSweepResult()
    }

    /// After a store: rescans, and sweeps if the folder really is over the limit — unless
    /// someone else is sweeping right now.
    func sweepIfOverLimit() {
        guard let limit else { return }
        refresh()
        guard state.withLock({ $0.bytes > limit }) else { return }
        _ = sweep(waitingForOthers: false)
    }

    /// Sweeps under `sweep.lock`; `nil` if it was busy and `waitingForOthers` is false.
    private func sweep(waitingForOthers: Bool) -> DiskCacheSweepResult? {
        let lock = open(layout.sweepLockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        // Without a lock file (a read-only root) sweep anyway: each removal is safe on its own.
        if lock >= 0 {
            let operation = waitingForOthers ? LOCK_EX : LOCK_EX | LOCK_NB
            var locked = flock(lock, operation)
            while locked != 0, errno == EINTR { locked = flock(lock, operation) }
            if locked != 0 {
                close(lock)
                return nil
            }
        }
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        return sweepLocked()
    }

    private func sweepLocked() -> DiskCacheSweepResult {
        var result = DiskCacheSweepResult()
        let now = DiskFiles.nanoseconds(DiskFiles.now())
        let groups = scanGroups()
        var remaining = groups.flatMap(\.entries)
        var removedPaths = Set<String>()

        func evict(_ entry: DiskCacheScannedEntry) -> Bool {
            guard removeUnlessUsed(entry) else { return false }
            removedPaths.insert(entry.path)
            result.removedBytes += entry.status.size
            return true
        }

        if let maxAge {
            let oldestKept = now - Int(min(maxAge, 1e9) * 1e9)  // at most ~31 years back
            remaining.removeAll { entry in
                guard entry.status.modifiedNanoseconds < oldestKept, evict(entry) else { return false }
                result.expiredEntries += 1
                return true
            }
        }

        var total = remaining.reduce(0) { $0 + $1.status.size }
        if let limit {
            let target = Int(Double(limit) * sweepTarget)
            remaining.sort { $0.status.accessedNanoseconds < $1.status.accessedNanoseconds }
            var kept: [DiskCacheScannedEntry] = []
            for entry in remaining {
                if total > target, evict(entry) {
                    total -= entry.status.size
                    result.evictedEntries += 1
                } else {
                    kept.append(entry)
                }
            }
            remaining = kept
        }

        result.removedTemporaryFiles = removeAbandonedTemporaries(now: now)
        for group in groups where group.entries.allSatisfy({ removedPaths.contains($0.path) }) {
            removeEmptyGroup(group)
        }

        result.remainingEntries = remaining.count
        result.remainingBytes = total
        state.withLock { state in
            state.scanned = true
            state.entries = remaining.count
            state.bytes = total
        }
        return result
    }

    /// Removes a scanned entry unless it has been read (newer access time) or replaced
    /// (another inode) since the scan. Returns whether it removed it.
    private func removeUnlessUsed(_ entry: DiskCacheScannedEntry) -> Bool {
        guard let current = DiskFiles.status(atPath: entry.path), current.isSameFile(as: entry.status),
            current.accessedNanoseconds <= entry.status.accessedNanoseconds
        else { return false }
        return unlink(entry.path) == 0
    }

    /// Removes `tmp/` items not modified for ``staleTemporaryAge``: a live writer keeps
    /// modifying its temp file until it renames it (its times are only set after the rename).
    private func removeAbandonedTemporaries(now: Int) -> Int {
        let oldestKept = now - Int(DiskCache.staleTemporaryAge * 1e9)
        var removed = 0
        for name in DiskFiles.list(layout.temporaryRoot) ?? [] {
            let path = layout.temporaryRoot + "/" + name
            guard let status = DiskFiles.status(atPath: path), status.modifiedNanoseconds < oldestKept else { continue }
            DiskFiles.removeTree(path)
            removed += 1
        }
        return removed
    }

    /// Removes a source folder left without entries. A writer may put an entry in at any
    /// moment: `rmdir` then fails, and the `source` file is put back.
    private func removeEmptyGroup(_ group: DiskCacheScannedGroup) {
        let sourcePath = layout.sourcePath(digest: group.digest)
        let sourceText = DiskFiles.readSmallFile(atPath: sourcePath)
        unlink(sourcePath)
        if rmdir(group.folder) == 0 {
            rmdir(DiskFiles.parentPath(group.folder))  // fails harmlessly unless it is empty too
        } else if let sourceText {
            _ = try? writeAtomically([sourceText], to: sourcePath, in: group.folder, times: nil)
        }
    }
}
