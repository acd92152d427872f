import DarkroomCore

// MARK: - CachingRenderer

/// Renders variants through the cache layers, then real work — and stores what it renders in
/// every layer. Only the variants that miss are rendered, and the source is read only when
/// something misses, so rendering the same variants twice does no decode or filter work.
///
/// Keys are `CacheKey/rendered(sourceKey:fingerprint:variant:)`'s, the pipeline's rule: an
/// edited file or an edited variant is simply never hit again (and is swept), and the CLI and
/// the server share every layer. The calling thread waits while layers that must wait (disk,
/// network) run on two threads of the renderer's own.
///
/// ```swift
/// let caches = try registry.cacheLayers(for: configuration.cacheSettings)
/// let renderer = CachingRenderer(renderer: VariantRenderer(registry: .standard), caches: caches)
/// let outputs = try renderer.render(try .file("cat.jpg"), targets: targets)
/// outputs[0].layer  // .rendered the first time, .memory or .disk after
/// ```
public struct CachingRenderer: Sendable {
    /// Renders the targets that miss every cache layer.
    public var renderer: VariantRenderer
    /// The layers asked before rendering, and where every render is stored (none by default).
    public var caches: CacheLayers

    /// Creates a renderer that asks `caches` first and renders what misses with `renderer`.
    public init(renderer: VariantRenderer, caches: CacheLayers = .none) {
        self.renderer = renderer
        self.caches = caches
    }

    /// Where an output came from: a layer's name, or ``ImageResponse/CacheLayer/rendered``.
    public typealias Layer = ImageResponse.CacheLayer

    /// One output, with the layer that produced it.
    public struct Output: Sendable {
        /// The target's name (the variant name).
        public var name: String
        /// The target's identifier (chain + encoder settings), as in its cache key.
        public var identifier: String
        /// The encoded bytes.
        public var bytes: [UInt8]
        /// The format the bytes are in.
        public var format: ImageFormat
        /// The cache layer that answered, or ``ImageResponse/CacheLayer/rendered`` when rendered now.
        public var layer: Layer
        /// Set when rendered now from an animation into a format that cannot animate (the
        /// bytes hold its first frame).
        public var flattenedAnimation: AnimationFlattening? = nil
    }

    /// The cache key of a target's render of a source.
    public static func key(source: SourceReference, target: RenderTarget) -> CacheKey {
        CacheKey.rendered(sourceKey: source.key, fingerprint: source.fingerprint, variant: target.identifier)
    }

    /// Renders every target, from the caches where possible; results are in target order.
    public func render(_ source: SourceReference, targets: [RenderTarget], counters: StageCounters? = nil) throws -> [Output] {
        var found: [String: Output] = [:]
        var missing: [RenderTarget] = []
        for target in targets where found[target.identifier] == nil && !missing.contains(where: { $0.identifier == target.identifier }) {
            if let (hit, layer) = try cached(Self.key(source: source, target: target)) {
                found[target.identifier] = Output(
                    name: target.name, identifier: target.identifier, bytes: hit.bytes, format: hit.format, layer: Layer(layer),
                    flattenedAnimation: hit.flattenedAnimation)
            } else {
                missing.append(target)
            }
        }
        if !missing.isEmpty {
            let rendered = try renderer.locating(source).render(source.read(), targets: missing, counters: counters)
            var stores: [(CachedImage, CacheKey)] = []
            for (target, result) in zip(missing, rendered) {
                let flattened = (try? renderer.registry.encoder(for: result.format))
                    .flatMap { AnimationFlattening(image: result.image, encoder: $0) }
                let value = CachedImage(bytes: result.bytes, format: result.format, flattenedFrames: flattened?.frameCount)
                stores.append((value, Self.key(source: source, target: target)))
                found[target.identifier] = Output(
                    name: target.name, identifier: target.identifier, bytes: result.bytes, format: result.format, layer: .rendered,
                    flattenedAnimation: flattened)
            }
            store(stores)
        }
        return targets.map { target in
            var output = found[target.identifier]!
            output.name = target.name
            return output
        }
    }

    // MARK: - Layers

    /// The threads that run the layers that must wait: the caller may be on a cooperative
    /// thread (a test, an app's task), which it blocks, so the work must not need that pool.
    private static let layerThreads = PoolTaskExecutor(pool: ThreadPool(name: "darkroom.cache", count: 2))

    /// The immediate layers on this thread, then the others run to completion.
    private func cached(_ key: CacheKey) throws -> (CachedImage, layer: String)? {
        guard !caches.isEmpty else { return nil }
        if let hit = caches.immediateValue(for: key) { return hit }
        guard caches.layers.contains(where: { !$0.cache.answersImmediately }) else { return nil }
        let caches = caches
        return try BlockingWait.run(on: Self.layerThreads) { await caches.value(for: key, skippingImmediate: true) }
    }

    /// Stores every render in every layer; a failed store only loses a cache entry.
    private func store(_ renders: [(CachedImage, CacheKey)]) {
        guard !caches.isEmpty else { return }
        let caches = caches
        _ = try? BlockingWait.run(on: Self.layerThreads) {
            for (image, key) in renders { await caches.store(image, for: key) }
        }
    }
}

// MARK: - Naming the source in decode warnings

extension VariantRenderer {
    /// This renderer with its decode warnings naming `source` (its key: a file's absolute path).
    fileprivate func locating(_ source: SourceReference) -> VariantRenderer {
        guard let handOn = decoding.warnings else { return self }
        var located = self
        let key = source.key
        located.decoding.warnings = DecodeWarningHandler { warning in
            var named = warning
            named.source = named.source ?? key
            handOn(named)
        }
        return located
    }
}
