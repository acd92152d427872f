import DarkroomCore

// MARK: - ImageRequest

/// What to fetch and render: a location any registered source understands, a variant, and a
/// priority.
///
/// ```swift
/// let named = ImageRequest(location: "https://example.com/cat.jpg", variant: .named("avatar"))
/// let adHoc = ImageRequest(location: "photos/cat.jpg", variant: .target(RenderTarget(name: "blurred", chain: chain, encoding: .init(format: .webp))))
/// let bytes = ImageRequest(location: "photos/cat.jpg", variant: .original, priority: .high)
/// ```
public struct ImageRequest: Sendable {
    /// Which rendition of the source to return.
    public enum Variant: Sendable {
        /// A variant of the pipeline's configuration, by name.
        case named(String)
        /// An ad-hoc filter chain and encoding.
        case target(RenderTarget)
        /// The source's own bytes, unchanged (probed, so the format is known).
        case original
    }

    /// Where the source is: a path, URL or other location a registered source can load.
    public var location: String
    /// Which rendition of the source to return.
    public var variant: Variant
    /// How urgently the request's work runs (``ImagePriority/normal`` by default).
    public var priority: ImagePriority
    /// Also return the decoded `Image` when the bytes come from a cache (it is always returned
    /// when the pipeline renders now). Costs a decode; default `false`.
    public var wantsImage: Bool

    /// Creates a request for `variant` of the source at `location`; `wantsImage` also asks for
    /// the decoded pixels when the bytes come from a cache.
    public init(location: String, variant: Variant, priority: ImagePriority = .normal, wantsImage: Bool = false) {
        self.location = location
        self.variant = variant
        self.priority = priority
        self.wantsImage = wantsImage
    }

    /// The variant's name for logs and responses (`"original"` for the source's own bytes).
    public var variantName: String {
        switch variant {
        case let .named(name): return name
        case let .target(target): return target.name
        case .original: return "original"
        }
    }
}
