import DarkroomConfig
import DarkroomCore

// MARK: - VariantRenderer

/// Renders several targets from one source's bytes, doing each piece of work once:
///
/// 1. the header is probed and the limits checked;
/// 2. each target's chain says how small the source may be decoded for it (its first
///    filter's size hint: shrink-on-load), which the decoder turns into the scale it would
///    pick (``ImageDecoder/canonicalSizeHint(for:options:)``); the source is decoded **once
///    per distinct scale** — usually once — so a target comes out exactly as it would alone,
///    whichever targets it is rendered with (its identifier is its cache key);
/// 3. each distinct chain **prefix** is computed once per decode: `[aspect-fill, circle]` and
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
        for target in targets { try checkWritable(target, source: header) }

        // Targets grouped by the decode they need, in the order the groups first appear.
        var groups: [(options: DecodeOptions, decoder: any ImageDecoder, members: [Int])] = []
        for (index, target) in targets.enumerated() {
            let (decoder, options) = try registry.canonicalDecode(
                header, sizeHint: target.chain.sizeHint(forSourceSize: upright),
                appliesOrientation: appliesOrientation, limits: limits)
            if let group = groups.firstIndex(where: { $0.options.sizeHint == options.sizeHint }) {
                groups[group].members.append(index)
            } else {
                groups.append((options, decoder, [index]))
            }
        }

        var results = [RenderedVariant?](repeating: nil, count: targets.count)
        for group in groups {
            // One decode at a time: the previous group's pixels are released first.
            let decoded = try group.decoder.decode(bytes, header: header, options: group.options)
            counters?.recordDecode()
            var prefixes = PrefixMemo(source: decoded)
            var encoded: [String: RenderedVariant] = [:]
            for index in group.members {
                let target = targets[index]
                let identifier = target.identifier
                if let done = encoded[identifier] {
                    results[index] = RenderedVariant(
                        name: target.name, identifier: identifier, image: done.image, bytes: done.bytes, format: done.format)
                    continue
                }
                let image = try prefixes.result(of: target.chain, counters: counters)
                let format = outputFormat(for: target.encoding, source: header.format, image: image)
                let bytes = try registry.encode(image, options: target.encoding.options(sourceFormat: format))
                counters?.recordEncode()
                let rendered = RenderedVariant(name: target.name, identifier: identifier, image: image, bytes: bytes, format: format)
                encoded[identifier] = rendered
                results[index] = rendered
            }
        }
        return results.map { $0! }
    }

    // MARK: - Output format

    /// The variant's format, or for "same as source" the source's format when some encoder
    /// writes it, else PNG for translucent images and JPEG for opaque ones.
    public func outputFormat(for encoding: VariantEncoding, source: ImageFormat, image: Image) -> ImageFormat {
        formatBeforeDecoding(for: encoding, source: source) ?? (image.hasAlpha ? .png : .jpeg)
    }

    /// ``outputFormat(for:source:image:)`` when the pixels do not decide it, else `nil`.
    func formatBeforeDecoding(for encoding: VariantEncoding, source: ImageFormat) -> ImageFormat? {
        if let format = encoding.format { return format }
        return registry.writableFormats.contains(source) ? source : nil
    }

    /// Refuses, before anything is decoded, a target whose output its encoder could not
    /// write (``ImageEncoder/checkWritable(_:)``): a 1×100,000,000 image kept whole as a PNG
    /// used to be decoded for seconds and a gigabyte first. Targets whose output size or
    /// format depends on the pixels are left to the encoder.
    /// - Throws: ``DarkroomError/outputTooLarge(_:width:height:limit:)``.
    public func checkWritable(_ target: RenderTarget, source header: ImageHeader) throws {
        let upright = appliesOrientation ? header.uprightSize : header.size
        guard let size = target.chain.outputSize(forSourceSize: upright),
            let format = formatBeforeDecoding(for: target.encoding, source: header.format),
            let encoder = try? registry.encoder(for: format)
        else { return }
        try encoder.checkWritable(size)
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
