import Synchronization

// MARK: - ResolvedLocationMemo

/// What full resolutions of `FileSource` locations found: the resolved path and the file's
/// device and inode, so that a later lookup of the same location costs one `stat` (see
/// `FileSource.identityAndStat`). Bounded: when ``capacity`` locations are remembered, the
/// memo starts again empty. Thread-safe (a `Mutex`); copies of a source share it.
///
/// ```swift
/// let memo = ResolvedLocationMemo(capacity: 4)
/// memo.remember("a.jpg", .init(path: "/srv/a.jpg", device: 2049, inode: 42))
/// memo.entry(for: "a.jpg")?.path  // "/srv/a.jpg"
/// ```
final class ResolvedLocationMemo: Sendable {
    struct Entry: Sendable, Equatable {
        var path: String
        var device: UInt64
        var inode: UInt64
    }

    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    func entry(for location: String) -> Entry? {
        entries.withLock { $0[location] }
    }

    func remember(_ location: String, _ entry: Entry) {
        entries.withLock { entries in
            if entries.count >= capacity && entries[location] == nil { entries.removeAll(keepingCapacity: true) }
            entries[location] = entry
        }
    }

    /// How many locations are remembered.
    var count: Int { entries.withLock { $0.count } }
}
