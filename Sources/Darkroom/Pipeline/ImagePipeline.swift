import DarkroomCore
import CoreMetrics

// MARK: - ImagePipeline

/// Fetches, decodes, filters, encodes and caches images for an app, asynchronously: the
/// server-side counterpart of Nuke's `ImagePipeline` or AlamofireImage's `ImageDownloader`.
///
/// - **Caches first.** The cache layers (``CacheLayers``, `[caches.*]` in file order) are
///   asked in order: the memory layers on the caller's thread before any work (a hit costs a
///   lookup, no task), the others by the render job; then the work, whose result is stored in
///   every layer. ``ImageResponse/cacheLayer`` names the layer that answered.
/// - **Work is shared by stage.** Requests for one source share one fetch; renders whose chains
///   need the same shrink-on-load scale share one decode; chains sharing a prefix (`[aspect-fill, circle]` and
///   `[aspect-fill, rounded-corners]`) share its computation; equal targets share one encode.
/// - **Scheduling.** Downloads and processing (decode, filters, encode) wait in separate queues,
///   by priority (the highest of the requests sharing a job), FIFO or LIFO within one; decodes
///   also share a memory budget. CPU work and blocking reads run on dedicated threads.
/// - **Cancellation.** A cancelled request ends at once; shared work stops when nobody wants it.
///
/// ```swift
/// let pipeline = ImagePipeline(configuration: .init(registry: registry, variants: configuration, caches: caches))
/// let response = try await pipeline.image(for: "https://example.com/cat.jpg", variant: "avatar")
/// let all = try await pipeline.images(for: "photos/cat.jpg", variants: ["thumbnail", "avatar"])
/// let task = pipeline.request(ImageRequest(location: "photos/dog.jpg", variant: .named("avatar"), priority: .low))
/// task.priority = .veryHigh
/// let dog = try await task.response
/// ```
///
/// Render cache keys are `CacheKey/rendered(sourceKey:fingerprint:variant:)`'s, as the
/// CLI's: the source key, the target identifier and `@` the source's fingerprint. Sources
/// without a fingerprint (HTTP) are keyed without one, so their renders are reused until the
/// layers evict or expire them.
public final class ImagePipeline: Sendable {
    /// The configuration the pipeline was created with: registry, variants, caches and limits.
    public let configuration: Configuration
    let core: PipelineCore
    private let targets: [String: PreparedTarget]
    /// The first layer, when it answers immediately (memory): asked directly, without going
    /// through ``CacheLayers`` (the memory-hit path is a few hundred nanoseconds).
    /// (Two plain properties, not an optional tuple: a tuple holding an existential made the
    /// runtime look its metadata up on every hit.)
    private let firstImmediate: (any ImageCache)?
    private let firstImmediateLayer: ImageResponse.CacheLayer
    private let hasImmediateLayer: Bool
    /// Follows the shared layers' purge logs, when there are any (released with the pipeline).
    private let purgeFollower: PurgeFollower?

    /// Creates a pipeline from `configuration`: starts its threads and, when a shared layer
    /// keeps a purge log and ``ImagePipeline/Configuration/purgePollInterval`` is above zero,
    /// follows that log.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.hasImmediateLayer = configuration.caches.hasImmediateLayer
        let first = configuration.caches.layers.first
        self.firstImmediate = first?.cache.answersImmediately == true ? first?.cache : nil
        self.firstImmediateLayer = ImageResponse.CacheLayer(first?.name ?? "memory")
        self.core = PipelineCore(configuration: configuration)
        self.targets = configuration.variants.mapValues(PreparedTarget.init)
        let follower = PurgeFollower(caches: configuration.caches, logger: configuration.logger)
        if let interval = configuration.purgePollInterval, interval > 0, follower.hasLogs {
            purgeFollower = follower
            PurgeFollower.run(follower, every: interval, on: core.threads.io)
        } else {
            purgeFollower = nil
        }
    }

    // MARK: - Waiting from synchronous code

    /// The pipeline's blocking-I/O threads as a task executor. Synchronous code that waits for
    /// the pipeline passes it to ``BlockingWait``, so that the waited-for work (and whatever
    /// it does with the results, such as writing files) runs on these threads and never needs
    /// Swift's cooperative pool, which the waiting caller may itself be blocking. With
    /// ``Threading/shared`` threads it is the one pool, and the waiting thread works in it
    /// until the work ends.
    ///
    /// ```swift
    /// let outputs = try BlockingWait.run(on: pipeline.executor) { try await pipeline.images(for: path, variants: ["thumbnail"]) }
    /// ```
    public var executor: any TaskExecutor { core.threads.io }

    // MARK: - Readiness

    /// Asks every layer that must be waited for (disk, memcached) for a key that is never
    /// stored, on the pipeline's I/O threads: the layers that could not answer, with why
    /// (empty when every layer answered). A server's `/ready`.
    public func unreachableCacheLayers() async -> [(layer: String, error: any Error)] {
        let probe = CacheKey(source: "darkroom:readiness", variant: "probe")
        let layers = configuration.caches.layers.filter { !$0.cache.answersImmediately }
        return await withTaskExecutorPreference(core.threads.io) {
            var failures: [(layer: String, error: any Error)] = []
            for layer in layers {
                do {
                    _ = try await layer.cache.value(for: probe)
                } catch {
                    failures.append((layer.name, error))
                }
            }
            return failures
        }
    }

    // MARK: - Purging

    /// Removes every cached render (and kept original) of `location` from every layer; a
    /// shared layer that keeps a `PurgeLog` passes the purge on to the other servers.
    /// Returns the source's key and, per layer, how many entries went or why it could not.
    ///
    /// ```swift
    /// let (key, results) = try await pipeline.removeCachedImages(for: "https://example.com/cat.jpg")
    /// ```
    /// - Throws: `DarkroomError` when no source takes `location`.
    public func removeCachedImages(for location: String) async throws
        -> (sourceKey: String, removed: [(layer: String, removed: Result<Int, any Error>)])
    {
        let key = try configuration.registry.source(for: location).key(for: location)
        let caches = configuration.caches
        let results = await withTaskExecutorPreference(core.threads.io) { await caches.removeAll(forSource: key) }
        return (key, results)
    }

    // MARK: - Requests

    /// One variant of one location.
    /// - Throws: the source's, decoder's, filter's or encoder's `DarkroomError`;
    ///   `CancellationError` when the calling task is cancelled.
    public func image(for location: String, variant: String, priority: ImagePriority = .normal) async throws -> ImageResponse {
        let target = try prepared(named: variant)
        if let source = try? resolve(location) {
            let key = target.cacheKey(for: source)
            if let (hit, layer) = immediateValue(key) {
                return Self.response(hit, layer: layer, location: location, variant: variant)
            }
            let spec = RenderSpec(
                source: source,
                output: .variant(target, cacheKey: key))
            let task = ImageTask(request: ImageRequest(location: location, variant: .named(variant), priority: priority), core: core)
            core.lock.run { effects in task.subscribe(spec, fallbackError: nil, &effects) }
            return try await task.response
        }
        return try await request(ImageRequest(location: location, variant: .named(variant), priority: priority)).response
    }

    /// Several variants of one location, in the order asked. Those not in the memory cache share
    /// one fetch, one decode per distinct shrink-on-load scale (usually one) and each shared
    /// chain prefix; each comes out exactly as it would alone.
    /// - Throws: the first failure (the other requests are cancelled).
    public func images(for location: String, variants: [String], priority: ImagePriority = .normal) async throws -> [ImageResponse] {
        let prepared = try variants.map { try self.prepared(named: $0) }
        guard let source = try? resolve(location) else {
            // The source cannot even be named: each request fails (or falls back) on its own.
            var responses: [ImageResponse] = []
            for name in variants {
                responses.append(try await request(ImageRequest(location: location, variant: .named(name), priority: priority)).response)
            }
            return responses
        }
        var responses = [ImageResponse?](repeating: nil, count: variants.count)
        var missing: [Int] = []
        for (index, target) in prepared.enumerated() {
            if let hit = immediateHit(target.cacheKey(for: source), location: location, variant: variants[index]) {
                responses[index] = hit
            } else {
                missing.append(index)
            }
        }
        let tasks = missing.map { index in
            let target = prepared[index]
            let spec = RenderSpec(
                source: source,
                output: .variant(target, cacheKey: target.cacheKey(for: source)))
            let task = ImageTask(request: ImageRequest(location: location, variant: .named(variants[index]), priority: priority), core: core)
            core.lock.run { effects in task.subscribe(spec, fallbackError: nil, &effects) }
            return (index, task)
        }
        do {
            for (index, task) in tasks { responses[index] = try await task.response }
        } catch {
            tasks.forEach { $0.1.cancel() }
            throw error
        }
        return responses.map { $0! }
    }

    /// Starts a request and returns its handle at once; the work starts now.
    public func request(_ request: ImageRequest) -> ImageTask {
        let task = ImageTask(request: request, core: core)
        let target: PreparedTarget?
        do {
            target = try prepared(request.variant)
        } catch {
            core.lock.run { effects in task.complete(.failure(error), &effects) }
            return task
        }
        let output: RenderSpec.Output = target.map { target in
            .variant(target, cacheKey: CacheKey(source: "", variant: ""))
        } ?? .original
        let spec: RenderSpec
        let fallbackError: (any Error)?
        do {
            let source = try resolve(request.location)
            spec = RenderSpec(source: source, output: output.keyed(for: source))
            fallbackError = nil
            if !request.wantsImage, case let .variant(_, key) = spec.output,
                let response = immediateHit(key, location: request.location, variant: request.variantName)
            {
                core.lock.run { effects in task.complete(.success(response), &effects) }
                return task
            }
        } catch {
            guard let fallback = core.fallback else {
                core.lock.run { effects in task.complete(.failure(error), &effects) }
                return task
            }
            spec = RenderSpec(source: fallback.resolved(), output: output.retargeted(to: fallback))
            fallbackError = error
        }
        core.lock.run { effects in task.subscribe(spec, fallbackError: fallbackError, &effects) }
        return task
    }

    /// The memory layers' copy of a variant, looked up synchronously; `nil` on a miss.
    public func cachedImage(for location: String, variant: String) -> ImageResponse? {
        guard let target = try? prepared(named: variant), let source = try? resolve(location),
            let (hit, layer) = configuration.caches.immediateValue(for: target.cacheKey(for: source))
        else { return nil }
        var response = ImageResponse(
            location: location, variant: variant, bytes: hit.bytes, format: hit.format, cacheLayer: .init(layer))
        response.contentDigest = hit.digest
        return response
    }

    /// A fresh memory hit for a variant, looked up without suspending and counted as a memory
    /// hit (a miss is not counted: the caller goes on to ``image(for:variant:priority:)``,
    /// which counts it). `nil` on a miss, a stale entry, or a location or variant that cannot
    /// be resolved (``image(for:variant:priority:)`` then says why).
    ///
    /// What a server tries first, so that a hit costs no task of its own:
    /// ```swift
    /// let response = try pipeline.memoryHit(for: path, variant: "thumb") ?? await pipeline.image(for: path, variant: "thumb")
    /// ```
    public func memoryHit(for location: String, variant: String) -> ImageResponse? {
        guard hasImmediateLayer, let target = targets[variant], let source = try? resolve(location),
            let (hit, layer) = immediateValue(target.cacheKey(for: source), countingMisses: false)
        else { return nil }
        return Self.response(hit, layer: layer, location: location, variant: variant)
    }

    /// The immediate layers' copy (memory), counted as a memory hit or miss; `nil` on a miss
    /// and when no layer answers immediately.
    private func immediateHit(_ key: CacheKey, location: String, variant: String) -> ImageResponse? {
        guard let (hit, layer) = immediateValue(key) else { return nil }
        return Self.response(hit, layer: layer, location: location, variant: variant)
    }

    /// The response for a cache hit, with the freshness its source left it.
    private static func response(
        _ hit: CachedImage, layer: ImageResponse.CacheLayer, location: String, variant: String
    ) -> ImageResponse {
        var response = ImageResponse(location: location, variant: variant, bytes: hit.bytes, format: hit.format, cacheLayer: layer)
        if hit.origin != nil {
            response.freshness = hit.freshness
            response.flattenedAnimation = hit.flattenedAnimation
            response.contentDigest = hit.digest
        }
        return response
    }

    /// The immediate layers' value (memory), counted as a memory hit or miss; `nil` on a miss
    /// and when no layer answers immediately. The first layer is asked directly.
    @inline(__always)
    private func immediateValue(_ key: CacheKey, countingMisses: Bool = true) -> (CachedImage, ImageResponse.CacheLayer)? {
        guard hasImmediateLayer else { return nil }
        // A render whose source's freshness ran out is not a hit here: its job revalidates it.
        if let cache = firstImmediate, let hit = cache.immediateValue(for: key), !hit.isStale {
            core.metrics.memoryHits.increment()
            return (hit, firstImmediateLayer)
        }
        guard let (hit, layer) = configuration.caches.immediateValue(for: key, after: firstImmediate == nil ? 0 : 1),
            !hit.isStale
        else {
            if countingMisses { core.metrics.memoryMisses.increment() }
            return nil
        }
        core.metrics.memoryHits.increment()
        return (hit, ImageResponse.CacheLayer(layer))
    }

    // MARK: - Resolving

    private func resolve(_ location: String) throws -> ResolvedSource {
        let source = try configuration.registry.source(for: location)
        let identity = try source.identity(for: location)
        return ResolvedSource(source: source, location: location, key: identity.key, fingerprint: identity.fingerprint)
    }

    private func prepared(named name: String) throws -> PreparedTarget {
        guard let target = targets[name] else {
            // Names with control characters (a server's negotiated twins) are never suggested.
            let known = targets.keys.filter { !$0.unicodeScalars.contains { $0.value < 0x20 } }
            let hint = NearestName.suggestion(for: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            let shown = name.count > 100 ? name.prefix(100) + "…" : name
            throw DarkroomError.invalidArgument(name: "variant", value: String(shown), expected: "a configured variant\(hint)")
        }
        return target
    }

    private func prepared(_ variant: ImageRequest.Variant) throws -> PreparedTarget? {
        switch variant {
        case let .named(name): return try prepared(named: name)
        case let .target(target): return PreparedTarget(target)
        case .original: return nil
        }
    }
}

extension RenderSpec.Output {
    /// The output with its cache key for `source`.
    func keyed(for source: ResolvedSource) -> RenderSpec.Output {
        switch self {
        case .original:
            return .original
        case let .variant(target, _):
            return .variant(target, cacheKey: target.cacheKey(for: source))
        }
    }
}
