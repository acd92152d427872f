import DarkroomCore
import Logging
import Metrics

// MARK: - PipelineCore

/// The engine behind an ``ImagePipeline``: the lock, the queues, the threads, and the tables
/// that let equal work be found and shared — render jobs by render key, source sessions by
/// source key and fingerprint.
///
/// Guarded by ``lock`` (its tables are only touched under it), hence `@unchecked Sendable`.
final class PipelineCore: @unchecked Sendable {
    let configuration: ImagePipeline.Configuration
    let lock = PipelineLock()
    let threads: PipelineThreads
    let metrics: PipelineMetrics
    let logger: Logger
    /// Cache-layer failures, logged once per layer every ten seconds.
    let layerFailures: LayerFailureLog
    let downloads: WorkQueue
    let processing: WorkQueue
    let fallback: FallbackSource?

    private var renders: [String: StageJob<RenderOutcome>] = [:]
    private var sessions: [String: SourceSession] = [:]
    /// The next session's number (``SourceSession/origin``).
    private var nextSessionOrigin = 0
    /// A source's answer fetched by a revalidation that found it changed, by session key:
    /// the render that follows takes it instead of fetching again.
    var prefetched: [String: SourceData] = [:]

    /// The most threads either pool starts, whatever the configuration asks: each is started
    /// when work needs it and then kept, and tens of thousands would exhaust the process's (and
    /// the user's) limit.
    static let maximumThreads = 256

    init(configuration: ImagePipeline.Configuration) {
        self.configuration = configuration
        threads = PipelineThreads(
            processingThreads: min(Self.maximumThreads, max(1, configuration.maximumActiveProcessing)),
            ioThreads: min(Self.maximumThreads, max(1, configuration.maximumActiveDownloads)) + 2,
            shared: configuration.threading == .shared)
        metrics = PipelineMetrics(
            prefix: configuration.metricsPrefix, factory: configuration.metricsFactory ?? MetricsSystem.factory,
            layers: configuration.caches.layers.map(\.name),
            immediateLayer: configuration.caches.layers.first(where: { $0.cache.answersImmediately })?.name ?? "memory")
        logger = configuration.logger
        layerFailures = LayerFailureLog(logger: configuration.logger)
        downloads = WorkQueue(
            name: "downloads", maximumActive: configuration.maximumActiveDownloads, memoryBudget: nil,
            order: configuration.queueOrder, depthGauge: metrics.downloadQueueDepth)
        processing = WorkQueue(
            name: "processing", maximumActive: configuration.maximumActiveProcessing,
            memoryBudget: configuration.memoryBudget, order: configuration.queueOrder,
            depthGauge: metrics.processingQueueDepth)
        fallback = configuration.fallback.map { FallbackSource(bytes: $0) }
    }

    deinit {
        // Every job and task holds the engine, so nothing can submit work any more.
        threads.stop()
    }

    // MARK: - Render jobs

    /// The render job for `spec`, shared with any equal one in flight. Call under the lock.
    func renderJob(for spec: RenderSpec, _ effects: inout PipelineEffects) -> StageJob<RenderOutcome> {
        let key = spec.jobKey
        if let existing = renders[key], !existing.isAbandoned, !existing.isFinished {
            metrics.coalesced(.render)
            return existing
        }
        let job = StageJob<RenderOutcome>(stage: .render, key: key, priority: .veryLow)
        renders[key] = job
        job.onLeave = { [unowned self, unowned job] _ in
            if self.renders[key] === job { self.renders[key] = nil }
        }
        job.start(lock: lock, on: threads.jobs) { [self] job in try await self.render(spec, as: job) }
        return job
    }

    // MARK: - Sessions

    /// Attaches a render to the session of `source`, starting one (and its fetch) when none
    /// is alive. Call under the lock; pair with ``detach(_:_:)``.
    func attach(_ source: ResolvedSource, _ effects: inout PipelineEffects) -> SourceSession {
        let key = source.sessionKey
        if let session = sessions[key], !session.fetch.isAbandoned {
            session.renders += 1
            if session.renders > 1 { metrics.coalesced(.fetch) }
            return session
        }
        let fetch = StageJob<FetchedSource>(stage: .fetch, key: key, priority: .veryLow)
        let session = SourceSession(source: source, fetch: fetch, origin: nextSessionOrigin)
        nextSessionOrigin += 1
        session.renders = 1
        sessions[key] = session
        fetch.start(lock: lock, on: threads.jobs) { [self] job in try await self.fetch(source, as: job) }
        return session
    }

    /// Detaches a render; the session ends with its last one, and the memory budget stops
    /// counting its decoded pixels. Call under the lock.
    func detach(_ session: SourceSession, _ effects: inout PipelineEffects) {
        session.renders -= 1
        guard session.renders == 0 else { return }
        let key = session.source.sessionKey
        if sessions[key] === session { sessions[key] = nil }
        for item in session.heldCosts { processing.releaseCost(item, &effects) }
        session.heldCosts = []
    }

    // MARK: - Diagnostics

    /// A snapshot of the pipeline's work.
    func activity() -> ImagePipeline.Activity {
        lock.run { _ in
            ImagePipeline.Activity(
                queuedDownloads: downloads.pendingCount, activeDownloads: downloads.activeCount,
                queuedProcessing: processing.pendingCount, activeProcessing: processing.activeCount,
                renderJobs: renders.count, sessions: sessions.count,
                attachedRenders: sessions.values.reduce(0) { $0 + $1.renders }, queuedDownloadKeys: downloads.pendingKeys)
        }
    }

    /// Log metadata for a source and stage.
    func metadata(_ source: ResolvedSource, _ stage: PipelineStage, variant: String? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["location": .string(source.location), "stage": .string(stage.rawValue)]
        if let variant { metadata["variant"] = .string(variant) }
        return metadata
    }
}
