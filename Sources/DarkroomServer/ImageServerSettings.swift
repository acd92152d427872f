import DarkroomCore

// MARK: - ImageServerSettings

/// What an ``ImageServer`` serves and how its responses may be cached.
///
/// Files are served only from under ``root``; remote `http(s)` sources only when
/// ``allowsRemoteSources`` (the configuration's `[sources.http]` then says which hosts); with a
/// ``signer`` every image path must carry its signature.
///
/// ```swift
/// var settings = ImageServerSettings(root: "/srv/images")
/// settings.allowsRemoteSources = false
/// settings.maxAge = 3600
/// settings.signer = try URLSigner(hexKey: key, hexSalt: salt)
/// settings.negotiatesWebP = true
/// settings.negotiatesAVIF = true
/// ```
public struct ImageServerSettings: Sendable {
    /// The folder files are served from; `nil` serves no files.
    public var root: String?
    /// Whether `http://` and `https://` sources are fetched.
    public var allowsRemoteSources: Bool
    /// Checks every image path's signature; `nil` accepts unsigned paths.
    public var signer: URLSigner?
    /// `Cache-Control: public, max-age=…` of images, in seconds (default one day, as thumbor).
    public var maxAge: Int
    /// Serve WebP twins of JPEG and PNG variants to clients whose `Accept` lists `image/webp`
    /// (``FormatNegotiation``); default `false`.
    public var negotiatesWebP: Bool
    /// Serve AVIF twins of JPEG variants to clients whose `Accept` lists `image/avif`, before
    /// WebP (``FormatNegotiation``); default `false`. The registry must write AVIF.
    public var negotiatesAVIF: Bool

    /// The formats negotiated with clients: AVIF and WebP as switched on.
    public var negotiatedFormats: Set<ImageFormat> {
        Set([negotiatesAVIF ? ImageFormat.avif : nil, negotiatesWebP ? .webp : nil].compactMap { $0 })
    }
    /// Counts responses, feeds the pipeline's metrics, and serves `/metrics`; `nil` (the
    /// default) answers `/metrics` with 404.
    public var metrics: ServerMetrics?
    /// `max-age` of a fallback image served in place of a failed source (default 60 s): the
    /// source may be back soon.
    public var fallbackMaxAge: Int
    /// The bearer token of `POST /admin/purge`; `nil` (the default) switches the endpoint off
    /// (`darkroom-server` takes it from `$DARKROOM_ADMIN_TOKEN`).
    public var adminToken: String?
    /// Whether unsigned paths may carry ad-hoc chains (`/chain:…/SOURCE`, `AdHocChain`);
    /// with a ``signer`` they always may, since only your application makes signed paths.
    /// Default `false`: without signing, only the configured variants.
    public var allowsUnsignedChains = false
    /// The most filters an ad-hoc chain may have (default 16).
    public var maximumChainFilters = 16

    /// Whether ad-hoc chains are answered: signed paths, or ``allowsUnsignedChains``.
    public var allowsChains: Bool { signer != nil || allowsUnsignedChains }

    /// Creates settings serving files under `root` (`nil`: none), fetching remote sources when
    /// `allowsRemoteSources`, checking signatures with `signer` (`nil`: unsigned paths), and
    /// letting images be cached for `maxAge` seconds; everything else starts at its default.
    public init(root: String? = nil, allowsRemoteSources: Bool = true, signer: URLSigner? = nil, maxAge: Int = 86_400) {
        self.root = root
        self.allowsRemoteSources = allowsRemoteSources
        self.signer = signer
        self.maxAge = maxAge
        self.fallbackMaxAge = 60
        self.negotiatesWebP = false
        self.negotiatesAVIF = false
        self.metrics = nil
    }
}
