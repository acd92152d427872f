import DarkroomCore

// MARK: - ImageResponse

/// One finished request: encoded bytes ready to serve, their format, where they came from and,
/// when the pipeline rendered them now (or the request asked), the decoded pixels.
///
/// ```swift
/// let response = try await pipeline.image(for: "photos/cat.jpg", variant: "avatar")
/// response.format       // .png
/// response.cacheLayer   // .rendered the first time, .memory after
/// if response.isFallback { log(response.fallbackError!) }
/// ```
public struct ImageResponse: Sendable {
    /// Where the bytes came from.
    public enum CacheLayer: String, Sendable, Hashable {
        /// The in-process memory cache of encoded variants.
        case memory
        /// The disk cache (a stored render, or for ``ImageRequest/Variant/original`` a stored original).
        case disk
        /// Rendered now: fetched (or taken from the originals cache), decoded, filtered, encoded.
        case rendered
        /// The source's own bytes, loaded now (``ImageRequest/Variant/original``).
        case source
    }

    public var location: String
    /// The variant's name (`"original"` for the source's own bytes).
    public var variant: String
    public var bytes: [UInt8]
    public var format: ImageFormat
    /// The decoded pixels of ``bytes`` when rendered now or asked for with ``ImageRequest/wantsImage``.
    public var image: Image?
    public var cacheLayer: CacheLayer
    /// `true` when the source failed and these bytes are the configured fallback image rendered
    /// through the requested variant.
    public var isFallback: Bool
    /// The source's error when ``isFallback``.
    public var fallbackError: (any Error)?

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
