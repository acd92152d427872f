import DarkroomCache
import DarkroomCore
import DarkroomSources
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

// MARK: - SourceReference

/// A source as the caches see it: a stable key (purge by source uses it), a fingerprint of
/// its current content (so an edited file is never served from an old render), and a way to
/// read its bytes only when something must be rendered.
///
/// ```swift
/// let source = try SourceReference.file("photos/cat.jpg")
/// source.key          // "/srv/photos/cat.jpg"
/// let bytes = try source.read()
/// ```
public struct SourceReference: Sendable {
    /// The stable key the source's renders are stored and purged under (for a file, its
    /// absolute, symlink-free path).
    public var key: String
    /// Changes whenever the content may have changed (file size, modification time, inode).
    public var fingerprint: String
    private let reader: @Sendable () throws -> [UInt8]

    /// Creates a reference keyed `key` whose current content has `fingerprint`; `read` is
    /// called to load the bytes, only when some target misses every cache.
    public init(key: String, fingerprint: String, read: @escaping @Sendable () throws -> [UInt8]) {
        self.key = key
        self.fingerprint = fingerprint
        self.reader = read
    }

    /// Reads the bytes.
    public func read() throws -> [UInt8] { try reader() }

    /// A file: the key is its absolute, symlink-free path; the fingerprint comes from `stat`.
    /// - Throws: `DarkroomError/io(path:detail:)` naming `path` when it cannot be examined.
    public static func file(_ path: String, maxBytes: Int = DecodeLimits.defaultMaxInputBytes) throws -> SourceReference {
        var info = stat()
        guard stat(path, &info) == 0 else { throw DarkroomError.io(path: path, detail: FileBytes.errnoText(errno)) }
        let key = absolutePath(path)
        let fingerprint = FileSource.fingerprint(of: info)
        return SourceReference(key: key, fingerprint: fingerprint) { try FileBytes.read(path, maxBytes: maxBytes) }
    }

    /// Bytes already in memory, under a caller-chosen key; the fingerprint is the bytes' SHA-256.
    public static func bytes(_ bytes: [UInt8], key: String) -> SourceReference {
        SourceReference(key: key, fingerprint: "sha256:" + CacheKey.sha256Hex(bytes: bytes)) { bytes }
    }

    /// The absolute, symlink-free form of a path (the form file sources are keyed by). For a
    /// file that no longer exists (purging a deleted source's renders) the folders it was in are
    /// still resolved, as far as they exist.
    public static func absolutePath(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent().path
        guard access(url.path, F_OK) != 0, folder != url.path, !url.lastPathComponent.isEmpty else {
            return url.resolvingSymlinksInPath().path
        }
        let resolvedFolder = absolutePath(folder)
        return (resolvedFolder.hasSuffix("/") ? resolvedFolder : resolvedFolder + "/") + url.lastPathComponent
    }
}
