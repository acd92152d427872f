import DarkroomCore
import FoundationEssentials

// MARK: - DiskCacheEntry

/// One value of a ``DiskCache``: encoded image bytes (a render, or a fetched original)
/// and the metadata needed to serve them again.
///
/// The HTTP fields are for cached originals: the origin's `Content-Type`, `ETag`,
/// `Last-Modified` and `Cache-Control: max-age` (seconds), kept verbatim so that a
/// revalidation can send them back. Renders usually set only ``format``.
///
/// ```swift
/// let entry = DiskCacheEntry(bytes: webpBytes, format: .webp)
/// try cache.store(entry, for: key)
/// cache.entry(for: key)?.format // .webp
/// ```
public struct DiskCacheEntry: Sendable, Equatable {
    /// The encoded bytes, exactly as stored.
    public var bytes: [UInt8]
    /// The image format of ``bytes``, if known.
    public var format: ImageFormat?
    /// The origin's media type (`Content-Type`), for originals.
    public var contentType: String?
    /// The origin's entity tag, verbatim (quotes included), for originals.
    public var etag: String?
    /// The origin's `Last-Modified` header text, for originals.
    public var lastModified: String?
    /// The origin's `Cache-Control: max-age` in seconds, for originals.
    public var maxAge: Int?
    /// For a render of an animation's first frame alone: the animation's frame count.
    public var flattenedFrames: Int?
    /// When the value was produced. Also the entry file's modification time, which the
    /// cache's own `maxAge` is measured from.
    public var created: Date

    /// Creates an entry holding `bytes`; the HTTP fields default to `nil` (renders need none)
    /// and `created` to now.
    public init(
        bytes: [UInt8],
        format: ImageFormat? = nil,
        contentType: String? = nil,
        etag: String? = nil,
        lastModified: String? = nil,
        maxAge: Int? = nil,
        created: Date = Date(),
        flattenedFrames: Int? = nil
    ) {
        self.bytes = bytes
        self.format = format
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.maxAge = maxAge
        self.created = created
        self.flattenedFrames = flattenedFrames
    }
}
