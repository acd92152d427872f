import Darkroom
import Foundation

// MARK: - FolderCache

/// An example cache kind, complete and small: renders kept as files in a folder, one folder
/// per source (so a purge by source removes one folder). Each file holds the key's text, the
/// format and the bytes; a file whose key text differs (a hash collision, a foreign file) is
/// a miss, never served.
///
/// ```toml
/// [caches.shelf]
/// type = "folder"
/// path = "/var/cache/shelf"
/// ```
public final class FolderCache: ImageCache {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    // MARK: - Registration

    /// Registers the `folder` kind: its tables have one required key, `path`.
    public static func register(in registry: inout Registry) {
        registry.register(cacheKind: "folder", keys: ["path"], summary: "renders as files in a folder", origin: "ExampleKinds") { table in
            guard let path = try table.string("path") else { throw table.error("path", "is required (the folder to keep renders in)") }
            return FolderCache(path: path)
        }
    }

    // MARK: - ImageCache

    public func value(for key: CacheKey) async throws -> CachedImage? {
        guard let data = FileManager.default.contents(atPath: file(for: key)) else { return nil }
        let bytes = [UInt8](data)
        // "<key text>\n<format>\n<bytes>"
        guard let first = bytes.firstIndex(of: 0x0A), let second = bytes[(first + 1)...].firstIndex(of: 0x0A),
            String(decoding: bytes[..<first], as: UTF8.self) == key.string,
            let format = ImageFormat(rawValue: String(decoding: bytes[(first + 1)..<second], as: UTF8.self))
        else { return nil }
        return CachedImage(bytes: Array(bytes[(second + 1)...]), format: format)
    }

    public func store(_ image: CachedImage, for key: CacheKey) async throws {
        let folder = self.folder(for: key.source)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let contents = Array((key.string + "\n" + image.format.rawValue + "\n").utf8) + image.bytes
        try Data(contents).write(to: URL(fileURLWithPath: file(for: key)), options: .atomic)
    }

    public func removeValue(for key: CacheKey) async throws {
        try? FileManager.default.removeItem(atPath: file(for: key))
    }

    public func removeAll(forSource source: String) async throws -> Int {
        let folder = self.folder(for: source)
        let count = (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? 0
        try? FileManager.default.removeItem(atPath: folder)
        return count
    }

    public func removeAll() async throws {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            try FileManager.default.removeItem(atPath: path + "/" + name)
        }
    }

    // MARK: - Layout

    private func folder(for source: String) -> String { path + "/" + Self.fnv1a(source) }

    private func file(for key: CacheKey) -> String { folder(for: key.source) + "/" + Self.fnv1a(key.string) }

    /// 64-bit FNV-1a as hex: stable across processes (Swift's `Hasher` is seeded per process).
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
