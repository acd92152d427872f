import DarkroomCore

// MARK: - ImageResponse

/// One finished request: encoded bytes ready to serve, their format, where they came from and,
/// when the pipeline rendered them now (or the request asked), the decoded pixels.
///
/// ```swift
/// let response = try await pipeline.image(for: "photos/cat.jpg", variant: "avatar")
/// response.format       // .png
/// response.cacheLayer   // .rendered the first time, .memory (the layer's name) after
/// if response.isFallback { log(response.fallbackError!) }
/// ```
public struct ImageResponse: Sendable {
    /// Where the bytes came from: a cache layer's name (its `[caches.NAME]` table), or
    /// ``rendered`` or ``source``.
    public struct CacheLayer: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The layer named `name` (a `[caches.NAME]` table's name).
        public init(_ name: String) {
            self.rawValue = name
        }

        /// The standard in-process memory layer (`[caches.memory]`).
        public static let memory = CacheLayer("memory")
        /// The standard disk layer (`[caches.disk]`: a stored render, or for
        /// ``ImageRequest/Variant/original`` a stored original).
        public static let disk = CacheLayer("disk")
        /// Rendered now: fetched (or taken from the originals layer), decoded, filtered, encoded.
        public static let rendered = CacheLayer("rendered")
        /// The source's own bytes, loaded now (``ImageRequest/Variant/original``).
        public static let source = CacheLayer("source")

        /// Whether a cache layer answered (not rendered or loaded now).
        public var isCache: Bool { self != .rendered && self != .source }

        public var description: String { rawValue }
    }

    /// The requested location, as in ``ImageRequest/location``.
    public var location: String
    /// The variant's name (`"original"` for the source's own bytes).
    public var variant: String
    /// The encoded bytes, ready to serve.
    public var bytes: [UInt8]
    /// The format the bytes are in.
    public var format: ImageFormat
    /// The decoded pixels of ``bytes`` when rendered now or asked for with ``ImageRequest/wantsImage``.
    public var image: Image?
    /// Where the bytes came from: the cache layer that answered,
    /// ``ImageResponse/CacheLayer/rendered`` or ``ImageResponse/CacheLayer/source``.
    public var cacheLayer: CacheLayer
    /// `true` when the source failed and these bytes are the configured fallback image rendered
    /// through the requested variant.
    public var isFallback: Bool
    /// The source's error when ``isFallback``.
    public var fallbackError: (any Error)?
    /// Seconds the source's answer still lets these bytes be reused (an origin's
    /// `Cache-Control`/`Expires`, less the time since): a server never promises its clients
    /// more. `nil` when the source said nothing (files, origins without freshness).
    public var freshness: Int?
    /// Set when the bytes are a render of an animated source into a format that cannot animate,
    /// so they hold its first frame (the server says so in `X-Darkroom-Animation`): rendered now,
    /// or from a layer that keeps the note (memory, disk). `nil` for still sources and animated
    /// outputs.
    public var flattenedAnimation: AnimationFlattening?
    /// The digest of ``bytes`` (``ContentDigest``) when the pipeline already had it: renders it
    /// rendered or stored, and hits from layers that keep it (memory). `nil` otherwise; compute
    /// it with `ContentDigest.of(response.bytes)`. The server's `ETag` is this digest.
    public var contentDigest: String?

    /// Creates a response of `bytes` in `format` for `variant` of `location`, answered by
    /// `cacheLayer`; ``freshness`` starts as `nil`.
    public init(
        location: String, variant: String, bytes: [UInt8], format: ImageFormat, image: Image? = nil,
        cacheLayer: CacheLayer, isFallback: Bool = false, fallbackError: (any Error)? = nil
    ) {
        self.location = location
        self.variant = variant
        self.bytes = bytes
        self.format = format
        self.image = image
        self.cacheLayer = cacheLayer
        self.isFallback = isFallback
        self.fallbackError = fallbackError
    }
}
