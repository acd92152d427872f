import DarkroomConfig
import DarkroomCore
import DarkroomFilters

// MARK: - RenderTarget

/// One output to render from a source: a filter chain and encoder settings, named.
///
/// ```swift
/// let target = RenderTarget(variant: configuration.variant(named: "avatar")!)
/// let adHoc = RenderTarget(name: "custom", chain: FilterChain([blur]), encoding: VariantEncoding(format: .webp))
/// let avatar = try RenderTarget(name: "avatar", filters: [.aspectFill(width: 128, height: 128), .circle],
///                               encoding: VariantEncoding(format: .png))
/// ```
public struct RenderTarget: Sendable {
    /// The target's name (the variant name), for logs and results.
    public var name: String
    /// The filters applied to the decoded source, in order.
    public var chain: FilterChain
    /// The output format and encoder settings.
    public var encoding: VariantEncoding

    /// Creates a target named `name` that applies `chain` and encodes with `encoding`.
    public init(name: String, chain: FilterChain, encoding: VariantEncoding) {
        self.name = name
        self.chain = chain
        self.encoding = encoding
    }

    /// A target whose chain is written as typed steps (`FilterStep`): the same identifiers,
    /// and so the same cache keys, as the string form in `filters.d/`.
    /// - Throws: the first step's argument error.
    public init(name: String, filters: [FilterStep], encoding: VariantEncoding = VariantEncoding()) throws {
        self.init(name: name, chain: try FilterChain(steps: filters), encoding: encoding)
    }

    /// The target for a configured variant.
    public init(variant: ResolvedVariant) {
        self.init(name: variant.name, chain: variant.chain, encoding: variant.encoding)
    }

    /// The chain identifier plus the encoder settings: equal identifiers render equal bytes
    /// (from the same source), so they are computed once and cached once.
    public var identifier: String { chain.identifier + ResolvedVariant.encodingSeparator + encoding.identifier }
}

// MARK: - RenderedVariant

/// One rendered output.
public struct RenderedVariant: Sendable {
    /// The target's name (the variant name).
    public var name: String
    /// The target's identifier (chain + encoder settings).
    public var identifier: String
    /// The final pixels, before encoding.
    public var image: Image
    /// The encoded bytes.
    public var bytes: [UInt8]
    /// The format the bytes are in.
    public var format: ImageFormat
}
