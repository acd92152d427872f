import DarkroomCache
import DarkroomCore
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
                        layer: fetched.fromCache ? .disk : .source)
                }
            case let .variant(target, cacheKey):
                if let hit = try await cached(cacheKey) { return hit }
                return try await rendered(spec.source, target: target, cacheKey: cacheKey, as: job)
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

    /// The memory cache (filled since the caller looked), then the disk cache.
    private func cached(_ key: CacheKey) async throws -> RenderOutcome? {
        if let hit = configuration.memoryCache?.value(for: key) {
            return RenderOutcome(bytes: hit.bytes, format: hit.format, image: nil, layer: .memory)
        }
        guard let disk = configuration.diskCache else { return nil }
        let entry = try await threads.blockingIO { disk.entry(for: key) }
        guard let entry, let format = entry.format else {
            metrics.lookup("disk", "miss")
            return nil
        }
        metrics.lookup("disk", "hit")
        configuration.memoryCache?.insert(EncodedImage(bytes: entry.bytes, format: format), for: key)
        return RenderOutcome(bytes: entry.bytes, format: format, image: nil, layer: .disk)
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
        if !noStore {
            let value = EncodedImage(bytes: encoded.bytes, format: encoded.format)
            configuration.memoryCache?.insert(value, for: cacheKey)
            if let disk = configuration.diskCache {
                // A failed store only loses a cache entry, never the render.
                try? await threads.blockingIO {
                    try disk.store(DiskCacheEntry(bytes: encoded.bytes, format: encoded.format), for: cacheKey)
                }
            }
        }
        logger.debug("rendered", metadata: metadata(source, .render, variant: target.target.name))
        return RenderOutcome(bytes: encoded.bytes, format: encoded.format, image: encoded.image, layer: .rendered)
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
