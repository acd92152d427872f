import DarkroomCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

// MARK: - FileSource

/// Loads images from files under one root folder, refusing anything that would escape it:
/// absolute paths, `..` components, and symbolic links (anywhere on the path) that resolve
/// outside the root.
///
/// Locations are paths relative to the root (`"photos/cat.jpg"`); a `file://` URL is not
/// accepted. The source key is the resolved absolute path.
///
/// ```swift
/// let files = try FileSource(root: "/srv/images")
/// let data = try await files.load("photos/cat.jpg")
/// ```
public struct FileSource: ImageSource {
    public let name = "file"
    /// The root folder, resolved (no symbolic links).
    public let root: String
    /// Files larger than this are refused before they are read.
    public var maxBytes: Int
    /// Locations resolved before (shared by copies of this source).
    let memo = ResolvedLocationMemo()

    /// - Throws: `DarkroomError/io(path:detail:)` when `root` is not a folder.
    public init(root: String, maxBytes: Int = DecodeLimits.defaultMaxInputBytes) throws {
        let resolved = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory else {
            throw DarkroomError.io(path: root, detail: "is not a folder")
        }
        self.root = resolved
        self.maxBytes = maxBytes
    }

    /// Relative paths without a URL scheme.
    public func canLoad(_ location: String) -> Bool {
        !location.isEmpty && !location.hasSchemeSeparator
    }

    public func load(_ location: String) async throws -> SourceData {
        try Task.checkCancellation()
        let path = try resolve(location)
        do {
            return SourceData(key: path, bytes: try FileBytes.read(path, maxBytes: maxBytes))
        } catch let DarkroomError.io(_, detail) {
            // Name the location the caller gave, not the server's absolute path.
            throw DarkroomError.io(path: location, detail: detail)
        }
    }

    /// The resolved absolute path: the same file has one key however it is spelled.
    public func key(for location: String) throws -> String {
        try identityAndFingerprint(location).path
    }

    /// Size, modification time and inode of the file.
    public func fingerprint(for location: String) throws -> String? {
        try identityAndFingerprint(location).fingerprint
    }

    /// The resolved path and its fingerprint. Costs one `stat` when `location` was resolved
    /// before and still names the same file; a full resolution otherwise.
    public func identity(for location: String) throws -> (key: String, fingerprint: String?) {
        let (path, fingerprint) = try identityAndFingerprint(location)
        return (path, fingerprint)
    }

    /// The resolved path of `location` and its file's fingerprint.
    ///
    /// Fast path, for a location a full resolution accepted before: `stat` its joined path
    /// (following every symbolic link, one system call). If that is the very file the full
    /// resolution found inside the root — same device, inode and status-change time — the
    /// remembered resolved path is still its name there, so it is the key. Anything else takes
    /// the full `realpath` resolution with every check, which refuses escapes: a first visit,
    /// a symbolic link retargeted (another inode), a file replaced by a rename, deleted, or
    /// deleted and its inode number reused (a new ctime), a file renamed, linked or written
    /// (each changes the ctime). Known limit: if the same unchanged inode becomes reachable
    /// only from outside the root (its folder moved out, a link pointed at another hard link
    /// of it), identity keeps the old key until the ctime changes; its bytes are those checked
    /// inside the root, and `load` resolves fully every time, so nothing outside is read.
    /// The fast path answers the fingerprint it remembered when the size and modification time
    /// are too (formatting it again was a sixth of a memory hit's identity check).
    func identityAndFingerprint(_ location: String) throws -> (path: String, fingerprint: String) {
        var info = stat()
        if let known = memo.entry(for: location), stat(known.joined, &info) == 0, known.isSameFile(as: info) {
            return (known.path, known.fingerprint(ifUnchangedIn: info) ?? Self.fingerprint(of: info))
        }
        let joined = try joinedPath(location)
        let path = try resolve(joined: joined, location: location)
        guard stat(path, &info) == 0 else { throw DarkroomError.io(path: location, detail: FileBytes.errnoText(errno)) }
        let fingerprint = Self.fingerprint(of: info)
        memo.remember(location, ResolvedLocationMemo.Entry(path: path, joined: joined, info: info, fingerprint: fingerprint))
        return (path, fingerprint)
    }

    /// The fingerprint of a `stat` result: changes when the file is rewritten or replaced.
    public static func fingerprint(of info: stat) -> String {
        "\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_ino)"
    }

    /// `root/location` after the checks that need no file system: not absolute, no `..`,
    /// not empty, no NUL. Repeated slashes are dropped; a trailing one is kept.
    func joinedPath(_ location: String) throws -> String {
        guard !location.hasPrefix("/") else { throw refusal(location, "absolute paths are not allowed") }
        let components = location.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.contains("..") else { throw refusal(location, "'..' is not allowed") }
        guard !components.isEmpty, !location.contains("\0") else { throw refusal(location, "empty or invalid path") }
        // A trailing slash stays: `photo.jpg/` names a folder, which a file is not.
        return rootPrefix + components.joined(separator: "/") + (location.hasSuffix("/") ? "/" : "")
    }

    /// The root with one trailing slash: `/srv/images/`, and `/` for the file system's root.
    private var rootPrefix: String { root.hasSuffix("/") ? root : root + "/" }

    func refusal(_ location: String, _ why: String) -> DarkroomError {
        .invalidArgument(name: "file location", value: location, expected: "a path inside the source folder (\(why))")
    }

    /// The absolute path `location` names inside the root.
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a path that
    ///   escapes the root, `DarkroomError/io(path:detail:)` for a missing file.
    public func resolve(_ location: String) throws -> String {
        try resolve(joined: try joinedPath(location), location: location)
    }

    /// `realpath` of `joined` (`root/location`, already checked lexically), refused if it
    /// leads outside the root.
    func resolve(joined: String, location: String) throws -> String {
        guard let real = realpath(joined, nil) else {
            throw DarkroomError.io(path: location, detail: FileBytes.errnoText(errno))
        }
        defer { free(real) }
        let resolved = String(cString: real)
        guard resolved == root || resolved.hasPrefix(rootPrefix) else {
            throw refusal(location, "a symbolic link leads outside it")
        }
        return resolved
    }
}
