// MARK: - CachedImage

/// What a cache layer keeps: encoded image bytes, their format and, for a fetched original,
/// what its source said about them (so it can be revalidated and served again).
///
/// ```swift
/// let render = CachedImage(bytes: png, format: .png)
/// let original = CachedImage(bytes: jpeg, format: .jpeg, etag: "\"v1\"", maxAge: 3600)
/// ```
public struct CachedImage: Sendable, Hashable {
    /// The encoded bytes, exactly as rendered or fetched.
    public var bytes: [UInt8]
    public var format: ImageFormat
    /// The origin's media type (`Content-Type`), for originals.
    public var contentType: String?
    /// The origin's entity tag, verbatim (quotes included), for originals.
    public var etag: String?
    /// The origin's `Last-Modified` header text, for originals.
    public var lastModified: String?
    /// The origin's `Cache-Control: max-age` in seconds, for originals.
    public var maxAge: Int?
    /// When the value was stored, in seconds since 1970, when the layer keeps it (the
    /// freshness of an original is measured from it).
    public var storedAt: Double?

    public init(
        bytes: [UInt8], format: ImageFormat, contentType: String? = nil, etag: String? = nil,
        lastModified: String? = nil, maxAge: Int? = nil, storedAt: Double? = nil
    ) {
        self.bytes = bytes
        self.format = format
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.maxAge = maxAge
        self.storedAt = storedAt
    }
}
