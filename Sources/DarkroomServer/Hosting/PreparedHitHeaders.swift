import Darkroom
import DarkroomCore
import HTTPTypes

// MARK: - PreparedHitHeaders

/// The HTTP header fields of memory hits, made once per request path and reused while the
/// memory cache holds the same bytes for it.
///
/// Parsing the route, building an ``ImageServerResponse`` and converting its headers to
/// Hummingbird's were a tenth of a memory hit's CPU (Benchmarks/README.md, "Server"). What
/// those steps give depends only on the path and on the cached render, so the host remembers,
/// for a path answered by a memory hit, the source and variant it named and the fields it
/// answered with. A later request for the path still asks the pipeline for the memory hit
/// (which checks the source's file, its freshness and the cache, exactly as before) and reuses
/// the fields only when the hit is the same render: the same digest and layer, with no
/// source freshness and no fallback, so every header the server would have made is the same.
/// Anything else (a changed file, a purge, an evicted render) goes the whole way again.
///
/// A `BoundedMemo`: started again empty when full. Only header fields are kept, never bodies.
///
/// ```swift
/// let prepared = PreparedHitHeaders(capacity: 4096)
/// prepared.remember("/thumb/a.jpg", entry)
/// prepared.entry(for: "/thumb/a.jpg")?.variant   // "thumb"
/// ```
typealias PreparedHitHeaders = BoundedMemo<PreparedHit>

/// What one path was answered with, and the render it was made from: see ``PreparedHitHeaders``.
struct PreparedHit: Sendable {
    /// The source and the variant the path names (after format negotiation, which the
    /// host does not combine with this memo).
    let source: String
    let variant: String
    /// The render the fields were made for.
    let digest: String
    let layer: ImageResponse.CacheLayer
    /// The answer's header fields, the last one being `X-Request-ID` (whose value each
    /// request replaces).
    let fields: HTTPFields

    /// Whether `hit` is the render these fields describe: the same bytes from the same
    /// layer, with none of what adds or changes a header (a source's freshness changes
    /// `Cache-Control`; a fallback and a flattened animation add headers of their own).
    func describes(_ hit: ImageResponse) -> Bool {
        hit.contentDigest == digest && hit.cacheLayer == layer && Self.canDescribe(hit)
    }

    /// Whether the fields of `hit`'s answer can be remembered at all (see ``describes(_:)``).
    static func canDescribe(_ hit: ImageResponse) -> Bool {
        hit.contentDigest != nil && hit.freshness == nil && !hit.isFallback && hit.flattenedAnimation == nil
    }
}
