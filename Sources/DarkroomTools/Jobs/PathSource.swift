import Darkroom
import DarkroomCore
import DarkroomSources

// MARK: - PathSource

/// Serves any local path a command line names, relative to the working folder or absolute, and
/// keys it as `SourceReference/file(_:maxBytes:)` does (the absolute, symlink-free path, with
/// a fingerprint from `stat`): a file's renders have one cache key whichever executor, command
/// or server read it. Errors name the path as the user wrote it.
///
/// It is not confined to a folder, so it is for tools run by the file's owner; a server serves
/// files through `FileSource` under its root.
///
/// ```swift
/// var registry = Registry.standard
/// registry.register(source: PathSource())
/// let photo = try await registry.source(for: "photos/cat.jpg").load("photos/cat.jpg")
/// ```
public struct PathSource: ImageSource {
    public let name = "file"
    /// Files larger than this are refused before they are read.
    public var maxBytes: Int

    /// Creates the source, refusing files larger than `maxBytes` bytes (by default
    /// `DecodeLimits.defaultMaxInputBytes`, the decoders' input limit).
    public init(maxBytes: Int = DecodeLimits.defaultMaxInputBytes) {
        self.maxBytes = maxBytes
    }

    /// Plain paths: anything that is not a URL (`scheme://`).
    public func canLoad(_ location: String) -> Bool {
        !location.isEmpty && !location.hasSchemeSeparator
    }

    public func identity(for location: String) throws -> (key: String, fingerprint: String?) {
        let reference = try SourceReference.file(location, maxBytes: maxBytes)
        return (reference.key, reference.fingerprint)
    }

    public func key(for location: String) throws -> String { try identity(for: location).key }

    public func fingerprint(for location: String) throws -> String? { try identity(for: location).fingerprint }

    public func load(_ location: String) async throws -> SourceData {
        SourceData(key: SourceReference.absolutePath(location), bytes: try FileBytes.read(location, maxBytes: maxBytes))
    }
}
