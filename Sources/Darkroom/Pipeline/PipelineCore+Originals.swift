import DarkroomCache
import DarkroomCore
import FoundationEssentials

// MARK: - The originals cache

extension PipelineCore {
    /// Loads a source's bytes. With ``ImagePipeline/Configuration/storesOriginals`` and a disk
    /// cache, a source without a fingerprint (a remote one) goes through the originals cache:
    ///
    /// - a stored original still fresh (younger than its `maxAge`) is used without asking;
    /// - otherwise the source is asked to revalidate it (`If-None-Match`/`If-Modified-Since`);
    ///   `.notModified` reuses the stored bytes and refreshes the entry;
    /// - new bytes are stored with their metadata — never when the source says `noStore`
    ///   (and a stale entry is then removed), nor when they are no image the probe reads (so a
    ///   source serving junk with a long `maxAge` is asked again once fixed); a failed load
    ///   stores nothing.
    ///
    /// Returns the data, its header when storing it probed it already (so the fetch does not
    /// probe the same bytes again), and whether it came from the cache without a transfer.
    func loadOriginal(_ resolved: ResolvedSource) async throws -> (SourceData, header: ImageHeader?, fromCache: Bool) {
        guard configuration.storesOriginals, resolved.fingerprint == nil, let disk = configuration.diskCache else {
            return (try await resolved.source.load(resolved.location), nil, false)
        }
        let key = CacheKey.original(source: resolved.key)
        let stored = try await threads.blockingIO { disk.entry(for: key) }
        let cached = stored.map { entry in
            SourceData(
                key: resolved.key, bytes: entry.bytes, contentType: entry.contentType, etag: entry.etag,
                lastModified: entry.lastModified, maxAge: entry.maxAge)
        }
        if let stored, let cached, let maxAge = stored.maxAge, Date().timeIntervalSince(stored.created) < Double(maxAge) {
            metrics.lookup("originals", "hit")
            return (cached, nil, true)
        }
        let outcome = try await resolved.source.load(resolved.location, revalidating: cached)
        switch outcome {
        case let .notModified(refreshed):
            metrics.lookup("originals", "revalidated")
            var data = cached ?? refreshed
            data.maxAge = refreshed.maxAge ?? data.maxAge
            data.etag = refreshed.etag ?? data.etag
            data.lastModified = refreshed.lastModified ?? data.lastModified
            data.noStore = refreshed.noStore
            return (data, try await storeOriginal(data, key: key, in: disk), false)
        case let .loaded(data):
            metrics.lookup("originals", "miss")
            return (data, try await storeOriginal(data, key: key, in: disk), false)
        }
    }

    /// Stores `data` unless it is `noStore` or no image; returns its header when it probed one.
    private func storeOriginal(_ data: SourceData, key: CacheKey, in disk: DiskCache) async throws -> ImageHeader? {
        try await threads.blockingIO {
            // Bytes that fail the fetch's probe are a failure, which is never kept.
            guard !data.noStore, let header = try? ImageProbe.probe(data.bytes) else {
                _ = disk.remove(key)
                return nil
            }
            let entry = DiskCacheEntry(
                bytes: data.bytes, format: header.format, contentType: data.contentType, etag: data.etag,
                lastModified: data.lastModified, maxAge: data.maxAge)
            // A failed store only loses a cache entry, never the load.
            try? disk.store(entry, for: key)
            return header
        }
    }
}
