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
    /// The format the bytes are encoded in.
    public var format: ImageFormat
    /// What the origin said about the bytes (originals), a render's notes (its source's
    /// freshness, a flattened animation, its ``digest``); `nil` when there is none.
    public var origin: Origin?

    /// Builds a cached value from encoded `bytes` in `format`; the other parameters become its
    /// ``origin`` metadata, which is `nil` when all of them are (the default, for a bare render).
    /// `flattenedFrames` is set for a render of an animation into a format that cannot animate;
    /// `digest` is the bytes' digest when the caller computed it (``digest``).
    public init(
        bytes: [UInt8], format: ImageFormat, contentType: String? = nil, etag: String? = nil,
        lastModified: String? = nil, maxAge: Int? = nil, storedAt: Double? = nil, flattenedFrames: Int? = nil,
        digest: String? = nil
    ) {
        self.bytes = bytes
        self.format = format
        let any = contentType != nil || etag != nil || lastModified != nil || maxAge != nil || storedAt != nil
            || flattenedFrames != nil || digest != nil
        self.origin = any
            ? Origin(
                contentType: contentType, etag: etag, lastModified: lastModified, maxAge: maxAge, storedAt: storedAt,
                flattenedFrames: flattenedFrames, digest: digest) : nil
    }

    /// This value with ``digest`` set to `digest` (the other metadata kept).
    public func withDigest(_ digest: String) -> CachedImage {
        CachedImage(
            bytes: bytes, format: format, contentType: contentType, etag: etag, lastModified: lastModified,
            maxAge: maxAge, storedAt: storedAt, flattenedFrames: flattenedFrames, digest: digest)
    }

    /// A digest of ``bytes`` computed once, when the value was made, so that a server need not
    /// hash the bytes again on every hit (its `ETag`); `nil` when nobody computed it (a layer
    /// that does not keep it, a value made without it). Derived from the bytes, so it takes no
    /// part in `==`.
    public var digest: String? { origin?.digest }

    /// The frame count of the animated source when these bytes are a render of its first frame
    /// alone (the format cannot animate); `nil` otherwise.
    public var flattenedFrames: Int? { origin?.flattenedFrames }

    /// ``flattenedFrames`` as the render reported it.
    public var flattenedAnimation: AnimationFlattening? {
        flattenedFrames.map { AnimationFlattening(frameCount: $0, format: format) }
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

    /// The metadata of a fetched original, or a render's notes (immutable).
    public final class Origin: Sendable, Hashable {
        /// The origin's media type (`Content-Type`), when it sent one.
        public let contentType: String?
        /// The origin's entity tag, verbatim (quotes included), when it sent one.
        public let etag: String?
        /// The origin's `Last-Modified` header text, when it sent one.
        public let lastModified: String?
        /// The origin's `Cache-Control: max-age`, in seconds, when it sent one.
        public let maxAge: Int?
        /// When the value was stored, in seconds since 1970; `nil` when the layer does not keep it.
        public let storedAt: Double?
        /// A render's note that its animated source had this many frames and only the first
        /// was written (``CachedImage/flattenedFrames``).
        public let flattenedFrames: Int?
        /// The bytes' digest, when computed (``CachedImage/digest``).
        public let digest: String?

        /// Builds the metadata from what the origin said; each value is `nil` when it was not given.
        public init(
            contentType: String?, etag: String?, lastModified: String?, maxAge: Int?, storedAt: Double?,
            flattenedFrames: Int? = nil, digest: String? = nil
        ) {
            self.contentType = contentType
            self.etag = etag
            self.lastModified = lastModified
            self.maxAge = maxAge
            self.storedAt = storedAt
            self.flattenedFrames = flattenedFrames
            self.digest = digest
        }

        public static func == (a: Origin, b: Origin) -> Bool {
            (a.contentType, a.etag, a.lastModified, a.maxAge, a.storedAt) == (b.contentType, b.etag, b.lastModified, b.maxAge, b.storedAt)
                && a.flattenedFrames == b.flattenedFrames
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(contentType)
            hasher.combine(etag)
            hasher.combine(lastModified)
            hasher.combine(maxAge)
            hasher.combine(storedAt)
            hasher.combine(flattenedFrames)
        }
    }
}
