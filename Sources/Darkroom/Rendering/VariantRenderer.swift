import DarkroomConfig
import DarkroomCore

// MARK: - VariantRenderer

/// Runs a ``RenderPlan`` inline, on the calling thread: renders several targets from one
/// source's bytes, doing each piece of work once —
///
/// 1. the header is probed and the plan made (limits and writability checked first);
/// 2. the source is decoded **once per distinct scale** the plan names — usually once — so a
///    target comes out exactly as it would alone, whichever targets it is rendered with (its
///    identifier is its cache key);
/// 3. each distinct chain **prefix** is computed once per decode: `[aspect-fill, circle]` and
///    `[aspect-fill, rounded-corners]` share one aspect-fill;
/// 4. targets with equal identifiers (equal chain + encoder settings) are encoded once.
///
/// ``ImagePipeline`` runs the same plan as shared, cancellable stage jobs.
///
/// ```swift
/// let renderer = VariantRenderer(registry: registry)
/// let outputs = try renderer.render(bytes, targets: configuration.variants.map(RenderTarget.init))
/// ```
public struct VariantRenderer: Sendable {
    /// The decoders, encoders and filters rendering uses.
    public var registry: Registry
    /// Orientation, limits and colour handling for every decode (each target's plan sets the
    /// size hint).
    public var decoding: DecodeOptions

    /// Creates a renderer that decodes and encodes with `registry`'s codecs; `decoding` sets
    /// orientation, limits and colour handling for every decode.
    public init(registry: Registry, decoding: DecodeOptions = DecodeOptions()) {
        self.registry = registry
        self.decoding = decoding
    }

    /// Renders every target; results are in the order of `targets`.
    /// - Throws: the first `DarkroomError` (bad input, limits, filter or encoder failure).
    public func render(_ bytes: [UInt8], targets: [RenderTarget], counters: StageCounters? = nil) throws -> [RenderedVariant] {
        try decoding.limits.check(byteCount: bytes.count)
        let header = try ImageProbe.probe(bytes)
        let plan = try RenderPlan(header: header, targets: targets, registry: registry, decoding: decoding)
        var results = [RenderedVariant?](repeating: nil, count: targets.count)
        for decode in plan.decodes {
            // One decode at a time: the previous group's pixels are released first.
            let decoded = try decode.decoder.decode(bytes, header: header, options: decode.options)
            counters?.recordDecode()
            var prefixes = PrefixMemo(source: decoded, maxPixels: decoding.limits.maxPixels)
            var encoded: [String: RenderedVariant] = [:]
            for index in decode.targets {
                let target = targets[index]
                let identifier = target.identifier
                if let done = encoded[identifier] {
                    results[index] = RenderedVariant(
                        name: target.name, identifier: identifier, image: done.image, bytes: done.bytes, format: done.format)
                    continue
                }
                let image = try prefixes.result(of: target.chain, keys: plan.prefixKeys(of: index), counters: counters)
                let format = RenderPlan.outputFormat(for: target.encoding, source: header.format, image: image, registry: registry)
                let options = target.encoding.options(sourceFormat: format)
                let metadata = options.keepsMetadata ? registry.metadata(of: bytes, header: header, decoding: decoding) : .none
                let bytes = try registry.encode(image, options: options, metadata: metadata)
                counters?.recordEncode()
                let rendered = RenderedVariant(name: target.name, identifier: identifier, image: image, bytes: bytes, format: format)
                encoded[identifier] = rendered
                results[index] = rendered
            }
        }
        return results.map { $0! }
    }
}

// MARK: - PrefixMemo

/// Results of chain prefixes computed so far for one decoded source, keyed by prefix identifier.
struct PrefixMemo {
    private var results: [String: Image]
    /// The configured pixel limit every filter's output is held to.
    private let maxPixels: Int

    init(source: Image, maxPixels: Int) {
        results = ["": source]
        self.maxPixels = maxPixels
    }

    /// The image after the whole chain (whose prefixes are named `keys`, as
    /// ``RenderPlan/prefixKeys(of:)`` names them), computing only the prefixes not seen before.
    mutating func result(of chain: FilterChain, keys: [String], counters: StageCounters?) throws -> Image {
        var image = results[""]!
        for (filter, prefix) in zip(chain.filters, keys) {
            if let known = results[prefix] {
                image = known
            } else {
                image = try filter.applyToEveryFrame(of: image, maxPixels: maxPixels)
                counters?.recordFilterRun(prefix: prefix)
                results[prefix] = image
            }
        }
        return image
    }
}
