import DarkroomCache
import DarkroomCore

// MARK: - ResolvedSource

/// A location with its source, canonical key and fingerprint, worked out without loading.
struct ResolvedSource: Sendable {
    let source: any ImageSource
    let location: String
    let key: String
    /// `nil` for sources that cannot tell without loading (HTTP).
    let fingerprint: String?

    /// Sessions (and the jobs in them) are per key and fingerprint: an edited file starts anew.
    var sessionKey: String { fingerprint.map { key + "@" + $0 } ?? key }
}

// MARK: - PreparedTarget

/// A render target with its identifier computed once.
struct PreparedTarget: Sendable {
    let target: RenderTarget
    let identifier: String

    init(_ target: RenderTarget) {
        self.target = target
        self.identifier = target.identifier
    }

    /// The render cache key (the one rule, ``CacheKey/rendered(sourceKey:fingerprint:variant:)``).
    func cacheKey(for source: ResolvedSource) -> CacheKey {
        CacheKey.rendered(sourceKey: source.key, fingerprint: source.fingerprint, variant: identifier)
    }
}

// MARK: - RenderSpec

/// Everything a render job needs.
struct RenderSpec: Sendable {
    enum Output: Sendable {
        case original
        /// The decode uses this target's own size hint (in the decoder's canonical form), so
        /// the result is the same whichever other variants are rendered beside it.
        case variant(PreparedTarget, cacheKey: CacheKey)
    }

    let source: ResolvedSource
    let output: Output

    /// Equal keys mean equal results: such render jobs are shared.
    var jobKey: String {
        switch output {
        case .original:
            return "original|" + source.sessionKey
        case let .variant(_, cacheKey):
            return cacheKey.string
        }
    }
}

// MARK: - Stage values

/// A loaded source, its header probed and checked against the limits.
struct FetchedSource: Sendable {
    let data: SourceData
    let header: ImageHeader
    /// The originals layer's name when served from it without a transfer.
    let fromCache: String?
}

/// An encoded render and the pixels it was encoded from.
struct EncodedRender: Sendable {
    let bytes: [UInt8]
    let format: ImageFormat
    let image: Image
    /// Set when an animated image was written as its first frame.
    var flattened: AnimationFlattening? = nil
}

/// What a render job produces.
struct RenderOutcome: Sendable {
    let bytes: [UInt8]
    let format: ImageFormat
    let image: Image?
    let layer: ImageResponse.CacheLayer
    /// Seconds the source's answer lets the bytes be reused (``ImageResponse/freshness``).
    var freshness: Int? = nil
    /// Set when rendered now from an animation its format cannot hold (``ImageResponse/flattenedAnimation``).
    var flattened: AnimationFlattening? = nil
    /// The bytes' digest when known (``ImageResponse/contentDigest``).
    var digest: String? = nil
}

// MARK: - SourceSession

/// The work on one fetched source (per source key and fingerprint): the fetch, and every
/// decode, chain prefix and encode derived from it, by key. Finished jobs keep their results
/// while any render job is attached, so renders arriving a little later share them as
/// `VariantRenderer`'s prefix memo does; the session ends with its last render.
///
/// Guarded by the pipeline lock.
final class SourceSession: @unchecked Sendable {
    let source: ResolvedSource
    let fetch: StageJob<FetchedSource>
    /// The session's number, in the order sessions started (its jobs' ``JobNode/origin``).
    let origin: Int
    /// Decode, prefix and encode jobs by key within the session.
    var jobs: [String: JobNode] = [:]
    /// Render jobs attached now.
    var renders = 0
    /// Whether a decode of this session asked the memory budget for its pixels: later decodes
    /// of the session ride on that reservation (waiting on it would wait on themselves).
    var hasMemoryReservation = false
    /// Decodes whose pixels the memory budget counts until the session ends.
    var heldCosts: [WorkItem] = []

    init(source: ResolvedSource, fetch: StageJob<FetchedSource>, origin: Int) {
        self.source = source
        self.fetch = fetch
        self.origin = origin
        fetch.origin = origin
    }
}

// MARK: - FallbackSource

/// Serves the configured fallback bytes (fingerprinted by their digest, computed once).
struct FallbackSource: ImageSource {
    static let location = "darkroom-fallback:"
    let name = "fallback"
    let bytes: [UInt8]
    private let fingerprint: String

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.fingerprint = "sha256:" + CacheKey.sha256Hex(bytes: bytes)
    }

    func canLoad(_ location: String) -> Bool { location == Self.location }

    func load(_ location: String) async throws -> SourceData {
        SourceData(key: Self.location, bytes: bytes)
    }

    func resolved() -> ResolvedSource {
        ResolvedSource(source: self, location: Self.location, key: Self.location, fingerprint: fingerprint)
    }
}
