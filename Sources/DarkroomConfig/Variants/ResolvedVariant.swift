import DarkroomCore

// MARK: - ResolvedVariant

/// A variant ready to render: its base flattened into one chain, its encoder settings merged.
///
/// The ``identifier`` — `chain identifier` + `>` + `encoding identifier` — is the variant's
/// part of every cache key. Two variants with equal identifiers produce equal bytes from equal
/// sources, whatever they are called, so they share one cache entry and one computation
/// (see ``Configuration/variantNamesByIdentifier``). `>` cannot occur inside a filter
/// identifier, so the split is unambiguous; a variant without filters has an identifier
/// starting with `>`.
///
/// ```swift
/// let small = configuration.variant(named: "avatar-small")!
/// small.chain.identifier // "aspect-fill(height=128,width=128)|circle|scale(height=64,width=64)"
/// small.identifier       // "aspect-fill(height=128,width=128)|circle|scale(height=64,width=64)>png(compression=6)"
/// small.base             // "avatar"
/// ```
public struct ResolvedVariant: Sendable {
    /// The variant's name: `NAME` in `[variants.NAME]`.
    public let name: String
    /// The variant's own `description` (never inherited from its base).
    public let description: String?
    /// The base's flattened chain followed by this variant's filters; consecutive duplicates of
    /// idempotent filters collapsed.
    public let chain: FilterChain
    /// This variant's encoder settings, unset ones inherited from its base.
    public let encoding: VariantEncoding
    /// The variant named by `base`, if any.
    public let base: String?
    /// The definition in use (the last one read).
    public let definedAt: SourceLocation
    /// Earlier definitions of the same name that a later file replaced, in reading order.
    public let overrides: [SourceLocation]

    /// Creates a resolved variant from its parts, as the loader does once bases are resolved.
    public init(
        name: String, description: String?, chain: FilterChain, encoding: VariantEncoding, base: String?,
        definedAt: SourceLocation, overrides: [SourceLocation]
    ) {
        self.name = name
        self.description = description
        self.chain = chain
        self.encoding = encoding
        self.base = base
        self.definedAt = definedAt
        self.overrides = overrides
    }

    /// The separator between the chain and the encoding in ``identifier``.
    public static let encodingSeparator = ">"

    /// `chain.identifier` + `>` + `encoding.identifier`.
    public var identifier: String {
        chain.identifier + Self.encodingSeparator + encoding.identifier
    }
}
