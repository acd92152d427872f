import DarkroomCore
import CoreMetrics
import Logging

// MARK: - Render jobs

extension PipelineCore {
    /// A render job's work: the caches, then the shared stages, then storing the result.
    func render(_ spec: RenderSpec, as job: StageJob<RenderOutcome>) async throws -> RenderOutcome {
        do {
            switch spec.output {
            case .original:
                return try await withSession(spec.source, as: job) { _, fetched in
                    RenderOutcome(
                        bytes: fetched.data.bytes, format: fetched.header.format, image: nil,
                        layer: fetched.fromCache.map { ImageResponse.CacheLayer($0) } ?? .source)
                }
            case let .variant(target, cacheKey):
                var stale: (hit: RenderOutcome, entry: CachedImage)?
                if let (hit, entry) = await cached(cacheKey) {
                    guard entry.isStale else { return hit }
                    stale = (hit, entry)
                }
                // A changed answer the render did not take (it joined a session that had
                // fetched already, or another server rendered it) is not kept past this job.
                defer { _ = lock.run { _ in prefetched.removeValue(forKey: spec.source.sessionKey) } }
                let work: @Sendable () async throws -> RenderOutcome = { [self, stale] in
                    // Stale: one conditional request decides (this job is the only one for the
                    // key in this process; the lease makes it the only one in the cluster).
                    if let (hit, entry) = stale,
                        let kept = try await revalidated(spec.source, entry: entry, hit: hit, cacheKey: cacheKey) {
                        return kept
                    }
                    return try await rendered(spec.source, target: target, cacheKey: cacheKey, as: job)
                }
                guard let leasing = configuration.caches.leasing else { return try await work() }
                return try await onceInCluster(cacheKey, through: leasing, work)
            }
        } catch {
            if !(error is CancellationError) {
                metrics.failed(job.stage)
                logger.debug(
                    "render failed: \(error)",
                    metadata: metadata(spec.source, .render, variant: spec.variantName))
            }
            throw error
        }
    }

    /// The layers: the immediate ones again (filled since the caller looked), then the others
    /// from the I/O threads (a layer may block on a file read). A layer's failure is a miss.
    /// A hit comes with its entry, whose source's freshness may have run out (a stale hit in
    /// memory is only returned when no slower layer has a fresh one).
    private func cached(_ key: CacheKey) async -> (RenderOutcome, CachedImage)? {
        let caches = configuration.caches
        guard !caches.isEmpty else { return nil }
        var stale: (RenderOutcome, CachedImage)?
        if let (hit, layer) = caches.immediateValue(for: key) {
            let outcome = RenderOutcome(
                bytes: hit.bytes, format: hit.format, image: nil, layer: .init(layer), freshness: hit.freshness,
                flattened: hit.flattenedAnimation, digest: hit.digest)
            guard hit.isStale else { return (outcome, hit) }
            stale = (outcome, hit)
        }
        // Only layers that must be waited for go to the I/O threads (which loads may fill).
        guard caches.hasWaitingLayers else { return stale }
        let found = await withTaskExecutorPreference(threads.io) {
            await caches.value(for: key, skippingImmediate: true) { layer, outcome in
                self.metrics.lookup(layer, outcome.label)
                if case let .failed(error) = outcome {
                    self.layerFailures.report(layer, "look up", error, metadata: ["key": .string(key.string)])
                }
            }
        }
        guard let (hit, layer) = found, !(hit.isStale && stale != nil) else { return stale }
        let outcome = RenderOutcome(
            bytes: hit.bytes, format: hit.format, image: nil, layer: .init(layer), freshness: hit.freshness,
            flattened: hit.flattenedAnimation, digest: hit.digest)
        return (outcome, hit)
    }

    // MARK: - Revalidating

    /// Asks the source whether a stale render's bytes changed, with the validators they were
    /// rendered from: not modified renews the render in every layer and returns it; modified
    /// returns `nil` (the caller renders, from the answer fetched here); a failure returns the
    /// stale render within ``ImagePipeline/Configuration/staleIfError`` seconds, else throws.
    private func revalidated(_ source: ResolvedSource, entry: CachedImage, hit: RenderOutcome, cacheKey: CacheKey) async throws -> RenderOutcome? {
        let validators = SourceData(
            key: source.key, bytes: [], etag: entry.etag, lastModified: entry.lastModified, maxAge: entry.maxAge)
        let outcome: SourceLoadOutcome
        do {
            outcome = try await withTaskExecutorPreference(threads.io) {
                try await source.source.load(source.location, revalidating: validators)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if Self.allowsStale(error), let left = entry.secondsFresh(), left + configuration.staleIfError > 0 {
                metrics.revalidation("stale")
                logger.notice("source failed; serving the stale render: \(error)", metadata: metadata(source, .render, variant: nil))
                return RenderOutcome(
                    bytes: hit.bytes, format: hit.format, image: nil, layer: hit.layer, freshness: 0, flattened: hit.flattened,
                    digest: hit.digest)
            }
            metrics.revalidation("error")
            throw error
        }
        switch outcome {
        case let .notModified(answer):
            metrics.revalidation("not_modified")
            var data = answer
            data.etag = answer.etag ?? entry.etag
            data.lastModified = answer.lastModified ?? entry.lastModified
            data.maxAge = answer.maxAge ?? entry.maxAge
            let renewed = CachedImage.render(
                entry.bytes, format: entry.format, of: data, maximum: configuration.maximumFreshness,
                flattenedFrames: entry.flattenedFrames, digest: entry.digest)
            if data.noStore {
                await removeEverywhere(cacheKey)
            } else {
                await store(renewed, for: cacheKey)
            }
            return RenderOutcome(
                bytes: entry.bytes, format: entry.format, image: nil, layer: hit.layer, freshness: renewed.freshness,
                flattened: entry.flattenedAnimation, digest: renewed.digest)
        case let .loaded(data):
            metrics.revalidation("modified")
            lock.run { _ in prefetched[source.sessionKey] = data }
            return nil
        }
    }

    /// Whether a revalidation's failure may be answered with the stale render (RFC 5861: a
    /// server error or no answer at all, never a 404 saying the image is gone).
    static func allowsStale(_ error: any Error) -> Bool {
        guard case let DarkroomError.fetchFailed(_, status, _, kind) = error else { return false }
        if let status { return status >= 500 }
        return kind == .connection || kind == .timedOut || kind == .other
    }

    /// Stores `value` in every layer (the immediate ones at once, the others on the I/O
    /// threads); a failed store only loses a cache entry.
    private func store(_ value: CachedImage, for cacheKey: CacheKey) async {
        let caches = configuration.caches
        guard !caches.isEmpty else { return }
        caches.storeImmediately(value, for: cacheKey)
        let failures = caches.hasWaitingLayers
            ? await withTaskExecutorPreference(threads.io) { await caches.store(value, for: cacheKey, skippingImmediate: true) }
            : []
        for (layer, error) in failures {
            metrics.lookup(layer, CacheLayers.Outcome.failed(error).label)
            layerFailures.report(layer, "store", error)
        }
    }

    private func removeEverywhere(_ cacheKey: CacheKey) async {
        for layer in configuration.caches.layers {
            _ = try? await withTaskExecutorPreference(threads.io) { try await layer.cache.removeValue(for: cacheKey) }
        }
    }

    private func rendered(
        _ source: ResolvedSource, target: PreparedTarget, cacheKey: CacheKey, as job: StageJob<RenderOutcome>
    ) async throws -> RenderOutcome {
        let (encoded, data) = try await withSession(source, as: job) { session, fetched in
            let header = fetched.header
            // The target's own plan: its decode's hint is in the decoder's canonical form, so
            // targets needing the same scale share the decode, and none depends on which
            // others are being rendered.
            let plan = try RenderPlan(
                header: header, targets: [target.target], registry: configuration.registry, decoding: configuration.decoding)
            let hint = plan.decodes[0].options.sizeHint
            let encoded = try await job.value(of: { effects in
                self.encodeJob(in: session, fetched: fetched, hint: hint, target: target, &effects)
            }, lock: lock)
            // The source's validators and freshness only: the fetched bytes are not kept here.
            var data = fetched.data
            data.bytes = []
            return (encoded, data)
        }
        // Renders of bytes the source forbids keeping are not kept either.
        let value = CachedImage.render(
            encoded.bytes, format: encoded.format, of: data, maximum: configuration.maximumFreshness,
            flattenedFrames: encoded.flattened?.frameCount)
        if !data.noStore { await store(value, for: cacheKey) }
        logger.debug("rendered", metadata: metadata(source, .render, variant: target.target.name))
        return RenderOutcome(
            bytes: encoded.bytes, format: encoded.format, image: encoded.image, layer: .rendered,
            freshness: data.noStore ? 0 : value.freshness, flattened: encoded.flattened, digest: value.digest)
    }

    // MARK: - Once per cluster

    /// Runs `work` (a render, or a stale render's revalidation) only while this process holds
    /// the shared layer's lease on the key; otherwise waits (with back-off) for the holder's
    /// fresh entry to appear in that layer, asking for the lease again at each look, so a
    /// holder that ends without storing (a failure, a `no-store` answer, a stale render
    /// served on error) hands over at once. Runs `work` itself when the layer fails, or after
    /// two leases' time.
    private func onceInCluster(
        _ cacheKey: CacheKey, through leasing: CacheLayer, _ work: @Sendable () async throws -> RenderOutcome
    ) async throws -> RenderOutcome {
        guard let layer = leasing.cache as? any RenderLeasing else { return try await work() }
        let giveUp = ContinuousClock.now + .seconds(2 * layer.leaseDuration)
        var pause = Duration.milliseconds(5)
        var waiting = false
        while true {
            if waiting {
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(100))
                if let found = try? await withTaskExecutorPreference(threads.io, operation: { try await layer.value(for: cacheKey) }),
                    !found.isStale {
                    metrics.lookup(leasing.name, "hit")
                    var found = found
                    if let index = configuration.caches.index(of: leasing.name) {
                        found = configuration.caches.digestedForFilling(found, above: index)
                        await configuration.caches.fill(found, for: cacheKey, above: index)
                    }
                    return RenderOutcome(
                        bytes: found.bytes, format: found.format, image: nil, layer: .init(leasing.name), freshness: found.freshness,
                        flattened: found.flattenedAnimation, digest: found.digest)
                }
            }
            guard ContinuousClock.now < giveUp else { return try await work() }
            let won: Bool
            do {
                won = try await withTaskExecutorPreference(threads.io) { try await layer.acquireLease(for: cacheKey) }
            } catch {
                metrics.lookup(leasing.name, CacheLayers.Outcome.failed(error).label)
                return try await work()
            }
            if won {
                metrics.leases.increment()
                defer { Task { try? await layer.releaseLease(for: cacheKey) } }
                return try await work()
            }
            if !waiting { metrics.leaseWaits.increment() }
            waiting = true
        }
    }

    /// Runs `body` attached to the source's session, once its fetch has finished.
    private func withSession<T: Sendable>(
        _ source: ResolvedSource, as job: StageJob<RenderOutcome>,
        _ body: (SourceSession, FetchedSource) async throws -> T
    ) async throws -> T {
        let session: SourceSession? = lock.run { effects in job.isAbandoned ? nil : attach(source, &effects) }
        guard let session else { throw CancellationError() }
        defer { lock.run { effects in detach(session, &effects) } }
        let fetched = try await job.value(of: session.fetch, lock: lock)
        return try await body(session, fetched)
    }
}

extension RenderSpec {
    var variantName: String {
        switch output {
        case .original: return "original"
        case let .variant(target, _): return target.target.name
        }
    }
}
