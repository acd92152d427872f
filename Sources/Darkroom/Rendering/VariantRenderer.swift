import DarkroomConfig
import DarkroomCore

// MARK: - VariantRenderer

/// Renders several targets from one source's bytes, doing each piece of work once:
///
/// 1. the header is probed and the limits checked;
/// 2. the source is decoded **once**, with a size hint large enough for every target
///    (each chain's first filter says how small it may be decoded — shrink-on-load);
/// 3. each distinct chain **prefix** is computed once: `[aspect-fill, circle]` and
///    `[aspect-fill, rounded-corners]` share one aspect-fill;
/// 4. targets with equal identifiers (equal chain + encoder settings) are encoded once.
///
/// ```swift
/// let renderer = VariantRenderer(registry: registry)
/// let outputs = try renderer.render(bytes, targets: configuration.variants.map(RenderTarget.init))
/// ```
public struct VariantRenderer: Sendable {
    public var registry: Registry
    public var limits: DecodeLimits
    /// Apply EXIF orientation (default `true`).
    public var appliesOrientation: Bool

    public init(registry: Registry, limits: DecodeLimits = DecodeLimits(), appliesOrientation: Bool = true) {
        self.registry = registry
        self.limits = limits
        self.appliesOrientation = appliesOrientation
    }

    /// Renders every target; results are in the order of `targets`.
    /// - Throws: the first ``DarkroomError`` (bad input, limits, filter or encoder failure).
    public func render(_ bytes: [UInt8], targets: [RenderTarget], counters: StageCounters? = nil) throws -> [RenderedVariant] {
        try limits.check(byteCount: bytes.count)
        let header = try ImageProbe.probe(bytes)
        try limits.check(header)
        let upright = appliesOrientation ? header.uprightSize : header.size

        let options = DecodeOptions(
            sizeHint: Self.decodeHint(for: targets.map(\.chain), sourceSize: upright),
            appliesOrientation: appliesOrientation, limits: limits)
        let decoded = try registry.decoder(for: header, options: options).decode(bytes, header: header, options: options)
        counters?.recordDecode()

        var prefixes = PrefixMemo(source: decoded)
        var encoded: [String: RenderedVariant] = [:]
        var results: [RenderedVariant] = []
        for target in targets {
            let identifier = target.identifier
            if let done = encoded[identifier] {
                results.append(RenderedVariant(
                    name: target.name, identifier: identifier, image: done.image, bytes: done.bytes, format: done.format))
                continue
            }
            let image = try prefixes.result(of: target.chain, counters: counters)
            let format = outputFormat(for: target.encoding, source: header.format, image: image)
            let bytes = try registry.encode(image, options: target.encoding.options(sourceFormat: format))
            counters?.recordEncode()
            let rendered = RenderedVariant(name: target.name, identifier: identifier, image: image, bytes: bytes, format: format)
            encoded[identifier] = rendered
            results.append(rendered)
        }
        return results
    }

    // MARK: - Size hint

    /// The decode size that satisfies every chain: the component-wise largest of their hints,
    /// or `nil` (full size) when any chain needs every pixel.
    public static func decodeHint(for chains: [FilterChain], sourceSize: PixelSize) -> PixelSize? {
        var hint: PixelSize?
        for chain in chains {
            guard let own = chain.sizeHint(forSourceSize: sourceSize) else { return nil }
            hint = PixelSize(width: max(hint?.width ?? 0, own.width), height: max(hint?.height ?? 0, own.height))
        }
        return hint
    }

    // MARK: - Output format

    /// The variant's format, or for "same as source" the source's format when some encoder
    /// writes it, else PNG for translucent images and JPEG for opaque ones.
    public func outputFormat(for encoding: VariantEncoding, source: ImageFormat, image: Image) -> ImageFormat {
        if let format = encoding.format { return format }
        if registry.writableFormats.contains(source) { return source }
        return image.hasAlpha ? .png : .jpeg
    }
}

// MARK: - PrefixMemo

/// Results of chain prefixes computed so far for one decoded source, keyed by prefix identifier.
struct PrefixMemo {
    private var results: [String: Image]

    init(source: Image) {
        results = ["": source]
    }

    /// The image after the whole chain, computing only the prefixes not seen before.
    mutating func result(of chain: FilterChain, counters: StageCounters?) throws -> Image {
        var image = results[""]!
        var prefix = ""
        for filter in chain.filters {
            prefix = prefix.isEmpty ? filter.identifier : prefix + FilterChain.separator + filter.identifier
            if let known = results[prefix] {
                image = known
            } else {
                image = try filter.apply(to: image)
                counters?.recordFilterRun(prefix: prefix)
                results[prefix] = image
            }
        }
        return image
    }
}
