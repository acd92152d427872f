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

// MARK: - MemorySource

/// Serves images from memory, by name: for embedding apps that already hold the bytes, and tests.
///
/// ```swift
/// let memory = MemorySource(["logo": logoBytes])
/// let data = try await memory.load("memory:logo")
/// ```
public struct MemorySource: ImageSource {
    public let name = "memory"
    /// The URL-like prefix of this source's locations.
    public static let scheme = "memory:"
    public let images: [String: [UInt8]]

    public init(_ images: [String: [UInt8]]) {
        self.images = images
    }

    public func canLoad(_ location: String) -> Bool { location.hasPrefix(Self.scheme) }

    public func load(_ location: String) async throws -> SourceData {
        try Task.checkCancellation()
        let name = String(location.dropFirst(Self.scheme.count))
        guard let bytes = images[name] else {
            throw DarkroomError.io(path: location, detail: "no such image in memory")
        }
        return SourceData(key: location, bytes: bytes)
    }
}
