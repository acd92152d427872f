import DarkroomCore
import Foundation

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

    /// - Throws: ``DarkroomError/io(path:detail:)`` when `root` is not a folder.
    public init(root: String, maxBytes: Int = DecodeLimits.defaultMaxInputBytes) throws {
        let resolved = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DarkroomError.io(path: root, detail: "is not a folder")
        }
        self.root = resolved
        self.maxBytes = maxBytes
    }

    /// Relative paths without a URL scheme.
    public func canLoad(_ location: String) -> Bool {
        !location.isEmpty && !location.contains("://")
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
        try resolve(location)
    }

    /// Size, modification time and inode of the file.
    public func fingerprint(for location: String) throws -> String? {
        let path = try resolve(location)
        var info = stat()
        guard stat(path, &info) == 0 else { throw DarkroomError.io(path: location, detail: FileBytes.errnoText(errno)) }
        return Self.fingerprint(of: info)
    }

    /// The resolved path and its fingerprint, with one resolution.
    public func identity(for location: String) throws -> (key: String, fingerprint: String?) {
        let path = try resolve(location)
        var info = stat()
        guard stat(path, &info) == 0 else { throw DarkroomError.io(path: location, detail: FileBytes.errnoText(errno)) }
        return (path, Self.fingerprint(of: info))
    }

    /// The fingerprint of a `stat` result: changes when the file is rewritten or replaced.
    public static func fingerprint(of info: stat) -> String {
        "\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_ino)"
    }

    /// The absolute path `location` names inside the root.
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` for a path that
    ///   escapes the root, ``DarkroomError/io(path:detail:)`` for a missing file.
    public func resolve(_ location: String) throws -> String {
        func refuse(_ why: String) -> DarkroomError {
            .invalidArgument(name: "file location", value: location, expected: "a path inside the source folder (\(why))")
        }
        guard !location.hasPrefix("/") else { throw refuse("absolute paths are not allowed") }
        let components = location.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.contains("..") else { throw refuse("'..' is not allowed") }
        guard !components.isEmpty, !location.contains("\0") else { throw refuse("empty or invalid path") }
        let joined = root + "/" + components.joined(separator: "/")
        guard let real = realpath(joined, nil) else {
            throw DarkroomError.io(path: location, detail: FileBytes.errnoText(errno))
        }
        defer { free(real) }
        let resolved = String(cString: real)
        guard resolved == root || resolved.hasPrefix(root + "/") else {
            throw refuse("a symbolic link leads outside it")
        }
        return resolved
    }
}
