import Darkroom

// MARK: - EntityTag

/// A strong `ETag` for a response body, and the `If-None-Match` check against it.
///
/// The tag is the body's `ContentDigest` (the first 128 bits of its SHA-256, in lowercase
/// hex) in quotes, so it is the same for the same bytes in every process and after every
/// restart (renders are deterministic), and changes whenever the bytes do — also when a
/// remote source changed behind a cache. A response that carries its digest (a render, a
/// memory hit) is tagged without hashing its bytes again.
///
/// ```swift
/// let tag = EntityTag(body: bytes)          // "\"5d41402abc4b2a76b9719d911017c592\""
/// tag.matches(ifNoneMatch: "W/\"5d41…\"")   // true: weak comparison, as RFC 9110 asks
/// ```
public struct EntityTag: Sendable, Equatable {
    /// The header value, quotes included.
    public let value: String

    /// The tag of `body`: its `ContentDigest`, in quotes.
    public init(body: [UInt8]) {
        self.init(digest: ContentDigest.of(body))
    }

    /// The tag of a body whose `ContentDigest` is `digest`.
    public init(digest: String) {
        self.value = "\"" + digest + "\""
    }

    /// Whether an `If-None-Match` header value names this tag (or is `*`): the weak
    /// comparison RFC 9110 prescribes for it, over a comma-separated list.
    public func matches(ifNoneMatch header: String) -> Bool {
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingHeaderSpace
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == value[...] { return true }
        }
        return false
    }
}
