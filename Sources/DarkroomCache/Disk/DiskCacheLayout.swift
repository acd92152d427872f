import DarkroomCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - DiskCacheAddress

/// Where one entry lives: its source group (folder), its file name and the key text
/// recorded in its header.
struct DiskCacheAddress: Sendable, Hashable {
    /// The group folder's name: a source digest (64 hex digits).
    var groupDigest: String
    /// The text hashed into ``groupDigest``; written to the group's `source` file.
    var groupText: String
    /// The entry's file name without the suffix (64 hex digits).
    var name: String
    /// The full key text, stored in the header and compared on every read.
    var keyText: String

    /// A typed key: grouped under its source, named by its persistent name.
    init(_ key: CacheKey) {
        groupDigest = key.sourceDigest
        groupText = "v\(key.salt)|\(key.source)"
        name = key.persistentName
        keyText = key.string
    }

    /// The group holding the entries stored through ``KeyValueCache`` with plain string keys,
    /// whose source is unknown. Its text cannot equal a source group's text, which always
    /// starts with `v<salt>|`.
    static let opaqueGroupText = "opaque string keys"

    /// A plain string key (see ``DiskCache`` on ``KeyValueCache``): never interpreted, only hashed.
    init(opaqueKey: String) {
        groupText = DiskCacheAddress.opaqueGroupText
        groupDigest = CacheKey.sha256Hex(groupText)
        name = CacheKey.sha256Hex(opaqueKey)
        keyText = opaqueKey
    }
}

// MARK: - DiskCacheLayout

/// The paths of a disk cache folder:
///
/// ```text
/// <root>/v1/<digest[0..<2]>/<digest>/<name>.entry   entries, grouped by source digest
/// <root>/v1/<digest[0..<2]>/<digest>/source         the source key text (informational)
/// <root>/tmp/                                        in-progress writes and purges
/// <root>/stats                                       hit/miss totals (flock-protected)
/// <root>/sweep.lock                                  one sweeper at a time (flock)
/// <root>/CACHEDIR.TAG                                marks the folder as the cache's own (DiskCacheFolderClaim)
/// ```
struct DiskCacheLayout: Sendable {
    static let entrySuffix = ".entry"
    static let sourceFileName = "source"
    static let purgePrefix = "purge-"
    static let temporarySuffix = ".tmp"

    let root: String

    init(root: String) {
        var trimmed = root
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.root = trimmed
    }

    var entriesRoot: String { root + "/v1" }
    var temporaryRoot: String { root + "/tmp" }
    var statsPath: String { root + "/stats" }
    var sweepLockPath: String { root + "/sweep.lock" }

    func groupFolder(digest: String) -> String {
        entriesRoot + "/" + digest.prefix(2) + "/" + digest
    }

    func entryPath(_ address: DiskCacheAddress) -> String {
        groupFolder(digest: address.groupDigest) + "/" + address.name + DiskCacheLayout.entrySuffix
    }

    func sourcePath(digest: String) -> String {
        groupFolder(digest: digest) + "/" + DiskCacheLayout.sourceFileName
    }

    /// A fresh, unique temporary file path: `<root>/tmp/<pid>-<random>.tmp`.
    func newTemporaryPath() -> String {
        temporaryRoot + "/\(getpid())-" + DiskCacheLayout.randomToken() + DiskCacheLayout.temporarySuffix
    }

    /// A fresh folder path for a purge in progress: `<root>/tmp/purge-<pid>-<random>`.
    func newPurgePath() -> String {
        temporaryRoot + "/" + DiskCacheLayout.purgePrefix + "\(getpid())-" + DiskCacheLayout.randomToken()
    }

    static func randomToken() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }
}
