// MARK: - CachedImage

/// What a cache layer keeps: encoded image bytes, their format and, for a fetched original,
/// what its source said about them (so it can be revalidated and served again).
///
/// ```swift
/// let render = CachedImage(bytes: png, format: .png)
/// let original = CachedImage(bytes: jpeg, format: .jpeg, etag: "\"v1\"", maxAge: 3600)
/// ```
///
/// Two words and a byte: the metadata of originals sits behind one reference, so the
/// memory-hit path copies a render as cheaply as a bare byte array (four optional strings
/// inline made every copy go through the runtime's value witnesses).
public struct CachedImage: Sendable, Hashable {
    /// The encoded bytes, exactly as rendered or fetched.
    public var bytes: [UInt8]
    public var format: ImageFormat
    /// What the origin said about the bytes (originals only); `nil` for renders.
    public var origin: Origin?

    public init(
        bytes: [UInt8], format: ImageFormat, contentType: String? = nil, etag: String? = nil,
        lastModified: String? = nil, maxAge: Int? = nil, storedAt: Double? = nil
    ) {
        self.bytes = bytes
        self.format = format
        let any = contentType != nil || etag != nil || lastModified != nil || maxAge != nil || storedAt != nil
        self.origin = any
            ? Origin(contentType: contentType, etag: etag, lastModified: lastModified, maxAge: maxAge, storedAt: storedAt) : nil
    }

    /// The origin's media type (`Content-Type`), for originals.
    public var contentType: String? { origin?.contentType }
    /// The origin's entity tag, verbatim (quotes included), for originals.
    public var etag: String? { origin?.etag }
    /// The origin's `Last-Modified` header text, for originals.
    public var lastModified: String? { origin?.lastModified }
    /// The origin's `Cache-Control: max-age` in seconds, for originals.
    public var maxAge: Int? { origin?.maxAge }
    /// When the value was stored, in seconds since 1970, when the layer keeps it (the
    /// freshness of an original is measured from it).
    public var storedAt: Double? { origin?.storedAt }

    // MARK: - Origin

    /// The metadata of a fetched original (immutable).
    public final class Origin: Sendable, Hashable {
        public let contentType: String?
        public let etag: String?
        public let lastModified: String?
        public let maxAge: Int?
        public let storedAt: Double?

        public init(contentType: String?, etag: String?, lastModified: String?, maxAge: Int?, storedAt: Double?) {
            self.contentType = contentType
            self.etag = etag
            self.lastModified = lastModified
            self.maxAge = maxAge
            self.storedAt = storedAt
        }

        public static func == (a: Origin, b: Origin) -> Bool {
            (a.contentType, a.etag, a.lastModified, a.maxAge, a.storedAt) == (b.contentType, b.etag, b.lastModified, b.maxAge, b.storedAt)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(contentType)
            hasher.combine(etag)
            hasher.combine(lastModified)
            hasher.combine(maxAge)
            hasher.combine(storedAt)
        }
    }
}
