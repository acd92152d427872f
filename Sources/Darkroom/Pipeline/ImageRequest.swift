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

    public var location: String
    public var variant: Variant
    public var priority: ImagePriority
    /// Also return the decoded ``Image`` when the bytes come from a cache (it is always returned
    /// when the pipeline renders now). Costs a decode; default `false`.
    public var wantsImage: Bool

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
