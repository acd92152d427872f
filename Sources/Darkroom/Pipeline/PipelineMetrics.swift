import CoreMetrics
import Metrics

// MARK: - PipelineMetrics

/// The pipeline's swift-metrics instruments, made once (labels start with the configured
/// prefix, `darkroom` by default):
///
/// | label | kind | dimensions |
/// |---|---|---|
/// | `darkroom_downloads_total` | counter | |
/// | `darkroom_download_bytes_total` | counter | |
/// | `darkroom_cache_lookups_total` | counter | `layer` = each `[caches.NAME]` and originals, `result` = hit/miss/error/timeout (revalidated for originals) |
/// | `darkroom_render_leases_total` | counter | `result` = won/waited (layers that lease renders: memcached) |
/// | `darkroom_coalesced_total` | counter | `stage` = render/fetch/decode/filter/encode |
/// | `darkroom_queue_depth` | gauge | `queue` = downloads/processing |
/// | `darkroom_stage_duration_seconds` | timer | `stage` = fetch/decode/filter/encode |
/// | `darkroom_failures_total` | counter | `stage` |
struct PipelineMetrics: Sendable {
    let downloads: Counter
    let downloadBytes: Counter
    /// The memory layer's counters, kept apart for the hit path (no dictionary lookup).
    let memoryHits: Counter
    /// Renders this process took the shared layer's lease for, and renders it waited for.
    let leases: Counter
    let leaseWaits: Counter
    let memoryMisses: Counter
    private let lookups: [String: Counter]
    private let coalesced: [PipelineStage: Counter]
    private let durations: [PipelineStage: Timer]
    private let failures: [PipelineStage: Counter]
    /// Revalidations of stale renders, by result (``revalidationResults``).
    private let revalidations: [String: Counter]
    let downloadQueueDepth: Gauge
    let processingQueueDepth: Gauge

    static let stages: [PipelineStage] = [.render, .fetch, .decode, .filter, .encode]
    /// `not_modified` (the render renewed), `modified` (rendered again), `stale` (the source
    /// failed and the stale render was served), `error` (the source failed, answered).
    static let revalidationResults = ["not_modified", "modified", "stale", "error"]

    /// `layers` are the cache layers' names: lookups are counted per layer and result.
    init(prefix: String, factory: any MetricsFactory, layers: [String] = ["memory", "disk"], immediateLayer: String = "memory") {
        func label(_ name: String) -> String { prefix.isEmpty ? name : prefix + "_" + name }
        downloads = Counter(label: label("downloads_total"), factory: factory)
        downloadBytes = Counter(label: label("download_bytes_total"), factory: factory)
        var lookups: [String: Counter] = [:]
        for layer in Set(layers + [immediateLayer, "originals"]) {
            for result in ["hit", "miss", "error", "timeout", "revalidated"] where result != "revalidated" || layer == "originals" {
                lookups[layer + "/" + result] = Counter(
                    label: label("cache_lookups_total"), dimensions: [("layer", layer), ("result", result)], factory: factory)
            }
        }
        self.lookups = lookups
        leases = Counter(label: label("render_leases_total"), dimensions: [("result", "won")], factory: factory)
        leaseWaits = Counter(label: label("render_leases_total"), dimensions: [("result", "waited")], factory: factory)
        memoryHits = lookups[immediateLayer + "/hit"]!
        memoryMisses = lookups[immediateLayer + "/miss"]!
        var coalesced: [PipelineStage: Counter] = [:]
        var durations: [PipelineStage: Timer] = [:]
        var failures: [PipelineStage: Counter] = [:]
        for stage in Self.stages {
            let dimensions = [("stage", stage.rawValue)]
            coalesced[stage] = Counter(label: label("coalesced_total"), dimensions: dimensions, factory: factory)
            failures[stage] = Counter(label: label("failures_total"), dimensions: dimensions, factory: factory)
            if stage != .render {
                durations[stage] = Timer(label: label("stage_duration_seconds"), dimensions: dimensions, factory: factory)
            }
        }
        self.coalesced = coalesced
        self.durations = durations
        self.failures = failures
        revalidations = Dictionary(uniqueKeysWithValues: Self.revalidationResults.map { result in
            (result, Counter(label: label("render_revalidations_total"), dimensions: [("result", result)], factory: factory))
        })
        downloadQueueDepth = Gauge(label: label("queue_depth"), dimensions: [("queue", "downloads")], factory: factory)
        processingQueueDepth = Gauge(label: label("queue_depth"), dimensions: [("queue", "processing")], factory: factory)
    }

    /// Counts one cache lookup; `layer` is a layer's name or `originals`, `result`
    /// hit/miss/error/revalidated.
    func lookup(_ layer: String, _ result: String) {
        lookups[layer + "/" + result]?.increment()
    }

    func coalesced(_ stage: PipelineStage) { coalesced[stage]?.increment() }

    func revalidation(_ result: String) { revalidations[result]?.increment() }

    func failed(_ stage: PipelineStage) { failures[stage]?.increment() }

    /// Times `body` as one run of `stage`.
    func time<T>(_ stage: PipelineStage, _ body: () async throws -> T) async rethrows -> T {
        let start = ContinuousClock.now
        defer {
            let elapsed = ContinuousClock.now - start
            let (seconds, attoseconds) = elapsed.components
            durations[stage]?.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        return try await body()
    }
}
