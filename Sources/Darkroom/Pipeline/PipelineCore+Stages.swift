import DarkroomCore
import CoreMetrics
import DarkroomConfig
import Logging

// MARK: - Stage jobs within a session

extension PipelineCore {
    /// The key of a decode within a session: its size hint.
    static func decodeKey(hint: PixelSize?) -> String {
        hint.map { "decode(\($0.width)x\($0.height))" } ?? "decode(full)"
    }

    /// The encode of `target` from the decode with `hint`, shared within the session.
    /// Call under the lock.
    func encodeJob(
        in session: SourceSession, fetched: FetchedSource, hint: PixelSize?, target: PreparedTarget,
        _ effects: inout PipelineEffects
    ) -> StageJob<EncodedRender> {
        let key = Self.decodeKey(hint: hint) + ">" + target.identifier
        if let existing = session.jobs[key] as? StageJob<EncodedRender>, !existing.isAbandoned {
            metrics.coalesced(.encode)
            return existing
        }
        let job = StageJob<EncodedRender>(stage: .encode, key: session.source.sessionKey + "|" + key, priority: .veryLow)
        job.origin = session.origin
        session.jobs[key] = job
        let filters = target.target.chain.filters
        // The whole chain is made and subscribed to now, under this lock hold, so its decode
        // is queued at once, even while every processing thread is busy. Each later stage's
        // driver starts as its input is delivered, on the thread that made the input.
        job.subscribe(
            to: imageJob(in: session, fetched: fetched, hint: hint, filters: filters, count: filters.count, &effects),
            thenSlotOf: processing, &effects, on: threads.stages, lock: lock
        ) { [self] input in
            let (image, slot) = try await job.value(of: input, lock: lock)
            return try await job.withSlot(slot, of: processing, lock: lock) {
                try await metrics.time(.encode) {
                    let registry = configuration.registry
                    let format = RenderPlan.outputFormat(
                        for: target.target.encoding, source: fetched.header.format, image: image, registry: registry)
                    let options = target.target.encoding.options(sourceFormat: format)
                    let decoding = configuration.decoding
                    let bytes = try await threads.compute {
                        let metadata =
                            options.keepsMetadata
                            ? registry.metadata(of: fetched.data.bytes, header: fetched.header, decoding: decoding) : .none
                        return try registry.encode(image, options: options, metadata: metadata)
                    }
                    configuration.counters?.recordEncode()
                    let flattened = AnimationFlattening(image: image, encoder: try registry.encoder(for: format))
                    return EncodedRender(bytes: bytes, format: format, image: image, flattened: flattened)
                }
            }
        }
        return job
    }

    /// The image after the first `count` filters (the decode itself for 0), shared within the
    /// session: each chain prefix is computed once. Call under the lock.
    func imageJob(
        in session: SourceSession, fetched: FetchedSource, hint: PixelSize?, filters: [any ImageFilter], count: Int,
        _ effects: inout PipelineEffects
    ) -> StageJob<Image> {
        let decodeKey = Self.decodeKey(hint: hint)
        let prefix = RenderPlan.prefixKey(of: filters.prefix(count))
        let key = count == 0 ? decodeKey : decodeKey + "|" + prefix
        if let existing = session.jobs[key] as? StageJob<Image>, !existing.isAbandoned {
            metrics.coalesced(count == 0 ? .decode : .filter)
            return existing
        }
        let job = StageJob<Image>(
            stage: count == 0 ? .decode : .filter, key: session.source.sessionKey + "|" + key, priority: .veryLow)
        job.origin = session.origin
        session.jobs[key] = job
        if count == 0 {
            // Queued now (the memory budget reserved for the session's first decode), so the
            // queue sees the work before a thread is free to drive it.
            let reserves = !session.hasMemoryReservation
            session.hasMemoryReservation = true
            var hinted = configuration.decoding
            hinted.sizeHint = hint
            let cost = reserves ? DecodeCost.estimatedBytes(header: fetched.header, options: hinted, registry: configuration.registry) : 0
            let slot = processing.enqueue(job, cost: cost, &effects)
            let timeout = reserves ? configuration.queueTimeout : nil
            job.start(lock: lock, on: threads.stages) { [self] job in
                try await decode(fetched, hint: hint, in: session, as: job, slot: slot, timeout: timeout)
            }
        } else {
            let filter = filters[count - 1]
            let maxPixels = configuration.decoding.limits.maxPixels
            job.subscribe(
                to: imageJob(in: session, fetched: fetched, hint: hint, filters: filters, count: count - 1, &effects),
                thenSlotOf: processing, &effects, on: threads.stages, lock: lock
            ) { [self] input in
                let (input, slot) = try await job.value(of: input, lock: lock)
                return try await job.withSlot(slot, of: processing, lock: lock) {
                    try await metrics.time(.filter) {
                        let output = try await threads.compute { try filter.applyToEveryFrame(of: input, maxPixels: maxPixels) }
                        configuration.counters?.recordFilterRun(prefix: prefix)
                        return output
                    }
                }
            }
        }
        return job
    }

    // MARK: - Decoding

    /// Decodes in a processing slot. The memory budget counts the decoded pixels (and a working
    /// copy, `DecodeCost`) from the decode's start to the end of the session (the renders that
    /// filter and encode them), so eight requests for eight 100-megapixel images hold one at a
    /// time, not eight; one that waits longer than the queue timeout fails as busy.
    private func decode(
        _ fetched: FetchedSource, hint: PixelSize?, in session: SourceSession, as job: StageJob<Image>, slot: WorkItem,
        timeout: Double?
    ) async throws -> Image {
        var hinted = configuration.decoding
        hinted.sizeHint = hint
        // Damage the fail-on level lets through goes to the caller's handler with its source;
        // without a handler it is logged.
        let (logger, details, handOn, location) = (logger, metadata(session.source, .decode), hinted.warnings, session.source.location)
        hinted.warnings = DecodeWarningHandler { warning in
            var located = warning
            located.source = located.source ?? location
            if let handOn { handOn(located) } else { logger.warning("\(located)", metadata: details) }
        }
        let options = hinted
        let registry = configuration.registry
        return try await job.withSlot(slot, of: processing, keepingCostFor: session, timeout: timeout, lock: lock) {
            try await metrics.time(.decode) {
                let image = try await threads.compute {
                    try registry.decoder(for: fetched.header, options: options)
                        .decode(fetched.data.bytes, header: fetched.header, options: options)
                }
                configuration.counters?.recordDecode()
                return image
            }
        }
    }

    // MARK: - Fetching

    /// Loads the source (through the originals cache when configured), counts the transfer and
    /// probes the header.
    func fetch(_ source: ResolvedSource, as job: StageJob<FetchedSource>) async throws -> FetchedSource {
        try await job.withSlot(of: downloads, lock: lock) {
            logger.trace("fetching", metadata: metadata(source, .fetch))
            let (data, probed, fromCache) = try await metrics.time(.fetch) {
                try await withTaskExecutorPreference(threads.io) { try await self.loadOriginal(source) }
            }
            if fromCache == nil {
                metrics.downloads.increment()
                metrics.downloadBytes.increment(by: Int64(data.bytes.count))
            }
            let limits = configuration.decoding.limits
            try limits.check(byteCount: data.bytes.count)
            let header = try probed ?? ImageProbe.probe(data.bytes)
            try limits.check(header)
            return FetchedSource(data: data, header: header, fromCache: fromCache)
        }
    }
}

// MARK: - Waiting on a job made under the same lock

extension JobNode {
}

extension StageJob {
    /// Subscribes this job (under the caller's lock hold) to `upstream`'s value, and starts
    /// `work` — which awaits it with ``value(of:lock:)-(UpstreamWait<Upstream>,_)`` — once the
    /// value (or its error) is delivered: on the pipeline's processing threads, from the thread
    /// that delivered it, which runs it next. The job queues for a slot of `queue` as the value
    /// is delivered, before the upstream job gives back its own slot, so the work of one source
    /// goes on stage after stage rather than letting a later source's work in between.
    func subscribe<Upstream: Sendable>(
        to upstream: StageJob<Upstream>, thenSlotOf queue: WorkQueue, _ effects: inout PipelineEffects,
        on executor: any TaskExecutor, lock: PipelineLock,
        then work: @escaping @Sendable (UpstreamWait<Upstream>) async throws -> Value
    ) {
        let wait = UpstreamWait<Upstream>(upstream: upstream)
        wait.waiterID = upstream.addWaiter(priority: priority, &effects) { [self] result, effects in
            if self.upstream?.node === upstream { self.upstream = nil }
            if case .success = result, !isAbandoned { wait.slot = queue.enqueue(self, cost: 0, &effects) }
            wait.suspension.resolve(result, &effects)
            start(lock: lock, on: executor) { _ in try await work(wait) }
        }
        if let id = wait.waiterID { self.upstream = (upstream, id) }
    }
}

extension JobNode {

    /// Waits for the value ``subscribe(to:thenSlotOf:_:)`` asked for: the value, and this
    /// job's place in the queue.
    func value<Upstream: Sendable>(
        of wait: UpstreamWait<Upstream>, lock: PipelineLock
    ) async throws -> (value: Upstream, slot: WorkItem) {
        let value = try await wait.suspension.wait(lock: lock) { effects in
            if let id = wait.waiterID { wait.upstream.removeWaiter(id, &effects) }
        }
        // Delivered with a value, so the place was taken under the lock that delivered it.
        guard let slot = lock.run({ _ in wait.slot }) else { throw CancellationError() }
        return (value, slot)
    }

    /// Waits, as this job, for the value of a job `make` finds or creates under the
    /// same lock hold that subscribes to it, so it is never left without a waiter.
    func value<Upstream: Sendable>(
        of make: @escaping (inout PipelineEffects) -> StageJob<Upstream>, lock: PipelineLock
    ) async throws -> Upstream {
        let suspension = Suspension<Upstream>()
        let subscription: (StageJob<Upstream>, Int?)? = lock.run { effects in
            guard !isAbandoned else {
                suspension.resolve(.failure(CancellationError()), &effects)
                return nil
            }
            let upstream = make(&effects)
            let id = upstream.addWaiter(priority: priority, &effects) { [self] result, effects in
                if self.upstream?.node === upstream { self.upstream = nil }
                suspension.resolve(result, &effects)
            }
            if let id { self.upstream = (upstream, id) }
            return (upstream, id)
        }
        return try await suspension.wait(lock: lock) { effects in
            if let (upstream, id) = subscription, let id { upstream.removeWaiter(id, &effects) }
        }
    }
}

// MARK: - UpstreamWait

/// A job's subscription to its upstream job's value: what it waits on, and the queue place it
/// took as the value was delivered. Guarded by the pipeline lock.
final class UpstreamWait<Upstream: Sendable>: @unchecked Sendable {
    let upstream: StageJob<Upstream>
    let suspension = Suspension<Upstream>()
    var waiterID: Int?
    var slot: WorkItem?

    init(upstream: StageJob<Upstream>) {
        self.upstream = upstream
    }
}
