import DarkroomCache
import DarkroomCore

// MARK: - CachingRenderer

/// Renders variants through the caches: memory, then disk, then real work — and stores what it
/// renders in both. Only the variants that miss are rendered, and the source is read only when
/// something misses, so rendering the same variants twice does no decode or filter work.
///
/// Keys are ``CacheKey``s of the source key and the variant identifier plus the source's
/// fingerprint: an edited file or an edited variant is simply never hit again (and is swept).
///
/// ```swift
/// let renderer = CachingRenderer(renderer: VariantRenderer(registry: .standard), memory: memory, disk: disk)
/// let outputs = try renderer.render(try .file("cat.jpg"), targets: targets)
/// outputs[0].layer  // .rendered the first time, .memory or .disk after
/// ```
public struct CachingRenderer: Sendable {
    public var renderer: VariantRenderer
    /// Encoded outputs in memory (cost = bytes), per process.
    public var memory: EncodedImageMemoryCache?
    /// Encoded outputs on disk, shared between processes and restarts.
    public var disk: DiskCache?

    public init(renderer: VariantRenderer, memory: EncodedImageMemoryCache? = nil, disk: DiskCache? = nil) {
        self.renderer = renderer
        self.memory = memory
        self.disk = disk
    }

    /// Where an output came from.
    public enum Layer: String, Sendable {
        case memory, disk, rendered
    }

    /// One output, with the layer that produced it.
    public struct Output: Sendable {
        public var name: String
        public var identifier: String
        public var bytes: [UInt8]
        public var format: ImageFormat
        public var layer: Layer
    }

    /// The cache key of a target's render of a source.
    public static func key(source: SourceReference, target: RenderTarget) -> CacheKey {
        CacheKey(source: source.key, variant: target.identifier + "@" + source.fingerprint)
    }

    /// Renders every target, from the caches where possible; results are in target order.
    public func render(_ source: SourceReference, targets: [RenderTarget], counters: StageCounters? = nil) throws -> [Output] {
        var found: [String: Output] = [:]
        var missing: [RenderTarget] = []
        for target in targets where found[target.identifier] == nil && !missing.contains(where: { $0.identifier == target.identifier }) {
            let key = Self.key(source: source, target: target)
            if let hit = memory?.value(for: key) {
                found[target.identifier] = Output(
                    name: target.name, identifier: target.identifier, bytes: hit.bytes, format: hit.format, layer: .memory)
            } else if let entry = disk?.entry(for: key), let format = entry.format {
                let encoded = EncodedImage(bytes: entry.bytes, format: format)
                memory?.insert(encoded, for: key)
                found[target.identifier] = Output(
                    name: target.name, identifier: target.identifier, bytes: entry.bytes, format: format, layer: .disk)
            } else {
                missing.append(target)
            }
        }
        if !missing.isEmpty {
            let rendered = try renderer.render(source.read(), targets: missing, counters: counters)
            for (target, result) in zip(missing, rendered) {
                let key = Self.key(source: source, target: target)
                memory?.insert(EncodedImage(bytes: result.bytes, format: result.format), for: key)
                // A failed store is only a lost cache entry, never a failed render.
                try? disk?.store(DiskCacheEntry(bytes: result.bytes, format: result.format), for: key)
                found[target.identifier] = Output(
                    name: target.name, identifier: target.identifier, bytes: result.bytes, format: result.format, layer: .rendered)
            }
        }
        return targets.map { target in
            var output = found[target.identifier]!
            output.name = target.name
            return output
        }
    }
}
