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
                if let hit = await cached(cacheKey) { return hit }
                guard let leasing = configuration.caches.leasing else {
                    return try await rendered(spec.source, target: target, cacheKey: cacheKey, as: job)
                }
                return try await renderedOnce(spec.source, target: target, cacheKey: cacheKey, through: leasing, as: job)
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
    private func cached(_ key: CacheKey) async -> RenderOutcome? {
        let caches = configuration.caches
        guard !caches.isEmpty else { return nil }
        if let (hit, layer) = caches.immediateValue(for: key) {
            return RenderOutcome(bytes: hit.bytes, format: hit.format, image: nil, layer: .init(layer))
        }
        // Only layers that must be waited for go to the I/O threads (which loads may fill).
        guard caches.hasWaitingLayers else { return nil }
        let found = await withTaskExecutorPreference(threads.io) {
            await caches.value(for: key, skippingImmediate: true) { layer, outcome in
                self.metrics.lookup(layer, outcome.label)
                if case let .failed(error) = outcome {
                    self.layerFailures.report(layer, "look up", error, metadata: ["key": .string(key.string)])
                }
            }
        }
        guard let (hit, layer) = found else { return nil }
        return RenderOutcome(bytes: hit.bytes, format: hit.format, image: nil, layer: .init(layer))
    }

    private func rendered(
        _ source: ResolvedSource, target: PreparedTarget, cacheKey: CacheKey, as job: StageJob<RenderOutcome>
    ) async throws -> RenderOutcome {
        let (encoded, noStore) = try await withSession(source, as: job) { session, fetched in
            let header = fetched.header
            try renderer.checkWritable(target.target, source: header)
            let upright = configuration.appliesOrientation ? header.uprightSize : header.size
            // The target's own hint in the decoder's canonical form: targets needing the same
            // scale share the decode, and none depends on which others are being rendered.
            let hint = try configuration.registry.canonicalDecode(
                header, sizeHint: target.target.chain.sizeHint(forSourceSize: upright),
                appliesOrientation: configuration.appliesOrientation, limits: configuration.limits
            ).options.sizeHint
            let encoded = try await job.value(of: { effects in
                self.encodeJob(in: session, fetched: fetched, hint: hint, target: target, &effects)
            }, lock: lock)
            return (encoded, fetched.data.noStore)
        }
        // Renders of bytes the source forbids keeping are not kept either.
        if !noStore, !configuration.caches.isEmpty {
            let caches = configuration.caches
            let value = CachedImage(bytes: encoded.bytes, format: encoded.format)
            caches.storeImmediately(value, for: cacheKey)
            // A failed store only loses a cache entry, never the render.
            let failures = caches.hasWaitingLayers
                ? await withTaskExecutorPreference(threads.io) { await caches.store(value, for: cacheKey, skippingImmediate: true) }
                : []
            for (layer, error) in failures {
                metrics.lookup(layer, CacheLayers.Outcome.failed(error).label)
                layerFailures.report(layer, "store", error)
            }
        }
        logger.debug("rendered", metadata: metadata(source, .render, variant: target.target.name))
        return RenderOutcome(bytes: encoded.bytes, format: encoded.format, image: encoded.image, layer: .rendered)
    }

    // MARK: - Once per cluster

    /// Renders only when this process holds the shared layer's lease on the key; otherwise
    /// waits (with back-off) for the holder's render to appear in that layer, and renders
    /// itself when the lease expires first or the layer fails.
    private func renderedOnce(
        _ source: ResolvedSource, target: PreparedTarget, cacheKey: CacheKey, through leasing: CacheLayer,
        as job: StageJob<RenderOutcome>
    ) async throws -> RenderOutcome {
        guard let layer = leasing.cache as? any RenderLeasing else {
            return try await rendered(source, target: target, cacheKey: cacheKey, as: job)
        }
        // Waiting ends after two leases' time at the most: then this process renders itself.
        let giveUp = ContinuousClock.now + .seconds(2 * layer.leaseDuration)
        var pause = Duration.milliseconds(5)
        while true {
            let won: Bool
            do {
                won = try await withTaskExecutorPreference(threads.io) { try await layer.acquireLease(for: cacheKey) }
            } catch {
                metrics.lookup(leasing.name, CacheLayers.Outcome.failed(error).label)
                return try await rendered(source, target: target, cacheKey: cacheKey, as: job)
            }
            if won {
                metrics.leases.increment()
                defer { Task { try? await layer.releaseLease(for: cacheKey) } }
                return try await rendered(source, target: target, cacheKey: cacheKey, as: job)
            }
            metrics.leaseWaits.increment()
            // Another process renders it: wait for its entry, then ask for the lease again.
            let deadline = min(ContinuousClock.now + .seconds(layer.leaseDuration), giveUp)
            while ContinuousClock.now < deadline {
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(100))
                if let found = try? await withTaskExecutorPreference(threads.io, operation: { try await layer.value(for: cacheKey) }) {
                    metrics.lookup(leasing.name, "hit")
                    if let index = configuration.caches.index(of: leasing.name) {
                        await configuration.caches.fill(found, for: cacheKey, above: index)
                    }
                    return RenderOutcome(bytes: found.bytes, format: found.format, image: nil, layer: .init(leasing.name))
                }
            }
            if ContinuousClock.now >= giveUp {
                return try await rendered(source, target: target, cacheKey: cacheKey, as: job)
            }
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
