import DarkroomCore
import FoundationEssentials

// MARK: - Freshness of renders

/// A render of a source that said how long its answer stays fresh (an HTTP origin's
/// `Cache-Control` or `Expires`) is stored with the source's validators and that freshness,
/// measured from when it was stored. Fresh, it is served as any hit; stale, one conditional
/// request to the source decides (``PipelineCore/revalidated(_:entry:cacheKey:)``): not
/// modified renews it, new bytes render it again, and an error serves it for
/// ``ImagePipeline/Configuration/staleIfError`` seconds more. Renders of sources that said
/// nothing carry no freshness and are kept until their layer drops them.
extension CachedImage {
    /// Seconds of freshness left at `now` (by default the present: the clock is read only for
    /// an entry with a freshness, as on every memory hit); negative when stale, `nil` without any.
    func secondsFresh(at now: Double? = nil) -> Double? {
        guard let origin, let maxAge = origin.maxAge, let storedAt = origin.storedAt else { return nil }
        return storedAt + Double(maxAge) - (now ?? Date().timeIntervalSince1970)
    }

    /// Whether the source's freshness has run out (the clock is read only for an entry that
    /// has a freshness: this is on the memory-hit path).
    var isStale: Bool {
        guard let origin, origin.maxAge != nil, origin.storedAt != nil else { return false }
        return (secondsFresh() ?? 1) <= 0
    }

    /// Whole seconds of freshness left, for a response (`nil` without any).
    var freshness: Int? { secondsFresh().map { max(0, Int($0.rounded(.down))) } }

    /// The entry for a render of `data`: its bytes with `data`'s validators and freshness
    /// (capped at `maximum` seconds), stored now, and their digest (`digest`, computed here
    /// when not given); without `data`'s freshness otherwise.
    static func render(
        _ bytes: [UInt8], format: ImageFormat, of data: SourceData, maximum: Int?, flattenedFrames: Int? = nil,
        digest: String? = nil
    ) -> CachedImage {
        let digest = digest ?? ContentDigest.of(bytes)
        guard var maxAge = data.maxAge else {
            return CachedImage(bytes: bytes, format: format, flattenedFrames: flattenedFrames, digest: digest)
        }
        if let maximum { maxAge = min(maxAge, maximum) }
        return CachedImage(
            bytes: bytes, format: format, etag: data.etag, lastModified: data.lastModified, maxAge: maxAge,
            storedAt: Date().timeIntervalSince1970, flattenedFrames: flattenedFrames, digest: digest)
    }
}
