import DarkroomCore

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
    /// The served images' encoded bytes by name: `memory:NAME` loads `images["NAME"]`.
    public let images: [String: [UInt8]]

    /// Builds a source serving `images`, encoded bytes keyed by name (the location without
    /// `memory:`).
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
