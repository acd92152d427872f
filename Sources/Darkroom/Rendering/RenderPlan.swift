import DarkroomCore

// MARK: - RenderPlan

/// The work rendering some targets from one source takes, worked out from the source's header
/// alone. It is computed here and nowhere else: ``VariantRenderer`` runs a plan inline (the CLI,
/// tests), and ``ImagePipeline`` runs each target's plan as shared stage jobs (the server), so
/// both decode, filter, encode and key the same way.
///
/// A plan:
/// 1. checks the header against the decode options' limits, each filter's output the size
///    decides against the pixel limit (`FilterChain.checkOutputSizes(forSourceSize:frames:maxPixels:)`)
///    and each target's output against its encoder (``checkWritable(_:header:decoding:registry:)``),
///    before a pixel is decoded;
/// 2. gives each target its decode: the decoder the registry picks and its chain's size hint in
///    that decoder's canonical form (``Registry/canonicalDecode(_:sizeHint:options:)``), so a
///    target comes out the same whichever targets it is planned with;
/// 3. groups targets needing the same decode (``decodes``, in order of first appearance);
/// 4. names each chain prefix (``prefixKeys(of:)-method``: equal prefixes are computed once per decode)
///    and each encode (the target's identifier: equal ones are encoded once);
/// 5. keys each render (``cacheKey(of:sourceKey:fingerprint:)``, the one rule) and picks the
///    output format (``outputFormat(for:source:image:registry:)``).
///
/// ```swift
/// let plan = try RenderPlan(header: header, targets: targets, registry: .standard)
/// plan.decodes.count            // 1: a 64 px and a 128 px thumbnail of a photo share a decode
/// plan.decodes[0].options.sizeHint
/// ```
public struct RenderPlan: Sendable {
    /// One decode of the source and the targets (indices into ``targets``) that use it.
    public struct Decode: Sendable {
        /// The decoder the registry picked for the source's format.
        public let decoder: any ImageDecoder
        /// The decode options in the decoder's canonical form, with the shared size hint.
        public let options: DecodeOptions
        /// The indices into the plan's ``RenderPlan/targets`` of the targets that use this decode.
        public let targets: [Int]
    }

    /// The source's header the plan was worked out from.
    public let header: ImageHeader
    /// The targets to render, in the order given.
    public let targets: [RenderTarget]
    /// The decodes, each once, in the order their first target appears.
    public let decodes: [Decode]

    /// Plans `targets`; `decoding` carries orientation, limits and colour handling (its size
    /// hint is each target's own).
    /// - Throws: `DarkroomError` for a header over the limits, an unreadable format, or a
    ///   target whose output its encoder could not write.
    public init(
        header: ImageHeader, targets: [RenderTarget], registry: Registry, decoding: DecodeOptions = DecodeOptions()
    ) throws {
        try decoding.limits.check(header)
        let upright = decoding.appliesOrientation ? header.uprightSize : header.size
        for target in targets {
            try target.chain.checkOutputSizes(
                forSourceSize: upright, frames: header.frameCount ?? 1, maxPixels: decoding.limits.maxPixels)
            try Self.checkWritable(target, header: header, decoding: decoding, registry: registry)
        }
        var decodes: [(decoder: any ImageDecoder, options: DecodeOptions, targets: [Int])] = []
        for (index, target) in targets.enumerated() {
            let (decoder, options) = try registry.canonicalDecode(
                header, sizeHint: target.chain.sizeHint(forSourceSize: upright), options: decoding)
            if let group = decodes.firstIndex(where: { $0.options.sizeHint == options.sizeHint }) {
                decodes[group].targets.append(index)
            } else {
                decodes.append((decoder, options, [index]))
            }
        }
        self.header = header
        self.targets = targets
        self.decodes = decodes.map { Decode(decoder: $0.decoder, options: $0.options, targets: $0.targets) }
    }

    // MARK: - Keys

    /// The identifiers of `target`'s chain prefixes, shortest first: `["a", "a|b"]` for `a|b`.
    /// Equal prefixes of one decode are one computation.
    public func prefixKeys(of target: Int) -> [String] {
        Self.prefixKeys(of: targets[target].chain.filters)
    }

    /// The identifiers of the chain prefixes of `filters`, shortest first.
    public static func prefixKeys(of filters: [any ImageFilter]) -> [String] {
        filters.indices.map { prefixKey(of: filters.prefix($0 + 1)) }
    }

    /// The key of one chain prefix: its filters' identifiers joined as in a chain identifier.
    public static func prefixKey(of prefix: some Collection<any ImageFilter>) -> String {
        prefix.map(\.identifier).joined(separator: FilterChain.separator)
    }

    /// The cache key of target `index`'s render of the source with `sourceKey` and `fingerprint`.
    public func cacheKey(of index: Int, sourceKey: String, fingerprint: String?) -> CacheKey {
        CacheKey.rendered(sourceKey: sourceKey, fingerprint: fingerprint, variant: targets[index].identifier)
    }

    // MARK: - Output format

    /// The format `encoding` writes: its own, or for "same as source" the source's format when
    /// some encoder writes it, else PNG for translucent images and JPEG for opaque ones.
    public static func outputFormat(
        for encoding: VariantEncoding, source: ImageFormat, image: Image, registry: Registry
    ) -> ImageFormat {
        formatBeforeDecoding(for: encoding, source: source, registry: registry) ?? (image.hasAlpha ? .png : .jpeg)
    }

    /// ``outputFormat(for:source:image:registry:)`` when the pixels do not decide it, else `nil`.
    static func formatBeforeDecoding(for encoding: VariantEncoding, source: ImageFormat, registry: Registry) -> ImageFormat? {
        if let format = encoding.format { return format }
        return registry.writableFormats.contains(source) ? source : nil
    }

    // MARK: - Refusing early

    /// Refuses, before anything is decoded, a target whose output its encoder could not write
    /// (`ImageEncoder/checkWritable(_:)`): a 1×100,000,000 image kept whole as a PNG used to
    /// be decoded for seconds and a gigabyte first. Targets whose output size or format depends
    /// on the pixels are left to the encoder.
    /// - Throws: `DarkroomError/outputTooLarge(_:width:height:limit:)`.
    public static func checkWritable(
        _ target: RenderTarget, header: ImageHeader, decoding: DecodeOptions, registry: Registry
    ) throws {
        let upright = decoding.appliesOrientation ? header.uprightSize : header.size
        guard let size = target.chain.outputSize(forSourceSize: upright),
            let format = formatBeforeDecoding(for: target.encoding, source: header.format, registry: registry),
            let encoder = try? registry.encoder(for: format)
        else { return }
        try encoder.checkWritable(size)
    }
}
