import DarkroomCore
import FoundationEssentials

// MARK: - ImageCache

/// ``DiskCache`` as a cache layer (`[caches.disk]`, or any table with `type = "disk"`). Its
/// methods block on file I/O for as long as a read or an atomic write takes; the engine
/// calls them from its I/O threads.
///
/// ```swift
/// let layer: any ImageCache = try DiskCache(directory: "/var/cache/darkroom")
/// try await layer.store(CachedImage(bytes: png, format: .png), for: key)
/// ```
extension DiskCache: ImageCache {
    /// The entry for `key` as a `CachedImage`; an entry of unknown format is a miss.
    public func value(for key: CacheKey) -> CachedImage? {
        guard let entry = entry(for: key), let format = entry.format else { return nil }
        return CachedImage(
            bytes: entry.bytes, format: format, contentType: entry.contentType, etag: entry.etag,
            lastModified: entry.lastModified, maxAge: entry.maxAge, storedAt: entry.created.timeIntervalSince1970,
            flattenedFrames: entry.flattenedFrames)
    }

    /// Stores `image` (a render or an original with its metadata).
    /// - Throws: `DarkroomError/io(path:detail:)` when the entry cannot be written.
    public func store(_ image: CachedImage, for key: CacheKey) throws {
        let entry = DiskCacheEntry(
            bytes: image.bytes, format: image.format, contentType: image.contentType, etag: image.etag,
            lastModified: image.lastModified, maxAge: image.maxAge,
            created: image.storedAt.map { Date(timeIntervalSince1970: $0) } ?? Date(), flattenedFrames: image.flattenedFrames)
        try store(entry, for: key)
    }

    public func removeValue(for key: CacheKey) {
        _ = remove(key)
    }
}
