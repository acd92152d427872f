import DarkroomCore

#if canImport(Glibc)
import Glibc
#endif

// MARK: - ResolvedLocationMemo

/// What full resolutions of `FileSource` locations found: the resolved path and the file's
/// device, inode and status-change time, so that a later lookup of the same location costs one `stat` (see
/// `FileSource.identityAndFingerprint`). A `BoundedMemo`: thread-safe, and started again empty
/// when full; copies of a source share it.
///
/// ```swift
/// let memo = ResolvedLocationMemo(capacity: 4)
/// memo.remember("a.jpg", .init(path: "/srv/a.jpg", joined: "/srv/a.jpg", device: 2049, inode: 42, changed: 7))
/// memo.entry(for: "a.jpg")?.path  // "/srv/a.jpg"
/// ```
typealias ResolvedLocationMemo = BoundedMemo<ResolvedLocation>

/// One location a full resolution accepted: see ``ResolvedLocationMemo``.
struct ResolvedLocation: Sendable, Equatable {
    /// The resolved absolute path (the key).
    var path: String
    /// `root/location`, as given (what the fast path stats).
    var joined: String
    var device: UInt64
    var inode: UInt64
    /// The status-change time in nanoseconds: a reused inode number, a rename, a new
    /// link or a write changes it.
    var changed: Int64
    /// The file's `FileSource` fingerprint when it was resolved, with the size and
    /// modification time it was made of (see ``fingerprint(ifUnchangedIn:)``).
    var fingerprint: String?
    var size: Int64 = -1
    var modified: Int64 = -1

    init(path: String, joined: String, device: UInt64, inode: UInt64, changed: Int64) {
        self.path = path
        self.joined = joined
        self.device = device
        self.inode = inode
        self.changed = changed
    }

    init(path: String, joined: String, info: stat, fingerprint: String? = nil) {
        self.init(path: path, joined: joined, device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
                  changed: Self.changeTime(of: info))
        self.fingerprint = fingerprint
        size = Int64(info.st_size)
        modified = Self.modificationTime(of: info)
    }

    /// The remembered fingerprint, if `info` has the size, modification time and inode it
    /// was made of (then it is the fingerprint `info` gives, without formatting it again).
    func fingerprint(ifUnchangedIn info: stat) -> String? {
        guard size == Int64(info.st_size), modified == Self.modificationTime(of: info), inode == UInt64(info.st_ino)
        else { return nil }
        return fingerprint
    }

    /// Whether `info` describes the same, unchanged file.
    func isSameFile(as info: stat) -> Bool {
        device == UInt64(info.st_dev) && inode == UInt64(info.st_ino) && changed == Self.changeTime(of: info)
    }

    static func changeTime(of info: stat) -> Int64 {
        Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }

    static func modificationTime(of info: stat) -> Int64 {
        Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
    }
}
