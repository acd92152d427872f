import DarkroomCore
import FoundationEssentials
import Logging

// MARK: - The originals cache

extension PipelineCore {
    /// Loads a source's bytes. With a layer that keeps originals (``CacheLayer/storesOriginals``),
    /// a source without a fingerprint (a remote one) goes through it:
    ///
    /// - a stored original still fresh (younger than its `maxAge`) is used without asking;
    /// - otherwise the source is asked to revalidate it (`If-None-Match`/`If-Modified-Since`);
    ///   `.notModified` reuses the stored bytes and refreshes the entry;
    /// - new bytes are stored with their metadata — never when the source says `noStore`
    ///   (and a stale entry is then removed), nor when they are no image the probe reads (so a
    ///   source serving junk with a long `maxAge` is asked again once fixed); a failed load
    ///   stores nothing.
    ///
    /// Runs on the I/O threads (a layer may block). Returns the data, its header when storing
    /// it probed it already (so the fetch does not probe the same bytes again), and the
    /// layer's name when it came from the layer without a transfer.
    func loadOriginal(_ resolved: ResolvedSource) async throws -> (SourceData, header: ImageHeader?, fromCache: String?) {
        if let data = lock.run({ _ in prefetched.removeValue(forKey: resolved.sessionKey) }) {
            return (data, nil, nil)
        }
        guard resolved.fingerprint == nil, let layer = configuration.caches.originals else {
            return (try await resolved.source.load(resolved.location), nil, nil)
        }
        let key = CacheKey.original(source: resolved.key)
        let stored: CachedImage?
        do {
            stored = try await layer.cache.value(for: key)
        } catch {
            metrics.lookup("originals", "error")
            layerFailures.report(layer.name, "look up an original", error)
            stored = nil
        }
        let cached = stored.map { entry in
            SourceData(
                key: resolved.key, bytes: entry.bytes, contentType: entry.contentType, etag: entry.etag,
                lastModified: entry.lastModified, maxAge: entry.maxAge)
        }
        if let stored, let cached, let maxAge = stored.maxAge, let storedAt = stored.storedAt,
            Date().timeIntervalSince1970 - storedAt < Double(maxAge)
        {
            metrics.lookup("originals", "hit")
            return (cached, nil, layer.name)
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
            return (data, await storeOriginal(data, key: key, in: layer), nil)
        case let .loaded(data):
            metrics.lookup("originals", "miss")
            return (data, await storeOriginal(data, key: key, in: layer), nil)
        }
    }

    /// Stores `data` unless it is `noStore` or no image; returns its header when it probed one.
    private func storeOriginal(_ data: SourceData, key: CacheKey, in layer: CacheLayer) async -> ImageHeader? {
        // Bytes that fail the fetch's probe are a failure, which is never kept.
        guard !data.noStore, let header = try? ImageProbe.probe(data.bytes) else {
            try? await layer.cache.removeValue(for: key)
            return nil
        }
        let entry = CachedImage(
            bytes: data.bytes, format: header.format, contentType: data.contentType, etag: data.etag,
            lastModified: data.lastModified, maxAge: data.maxAge)
        // A failed store only loses a cache entry, never the load.
        try? await layer.cache.store(entry, for: key)
        return header
    }
}
