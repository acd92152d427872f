import DarkroomConfig
import DarkroomCore
import FoundationEssentials
import Logging
import Metrics

// MARK: - ImagePipeline.Configuration

extension ImagePipeline {
    /// The order of waiting work within one priority.
    public enum QueueOrder: String, Sendable {
        /// Oldest first: fair for servers. "Oldest" is the source's work as a whole, so a render
        /// that has decoded is filtered and encoded before a later source is decoded.
        case fifo
        /// Newest first: what a scrolling client wants (the cells on screen asked last).
        case lifo
    }

    /// Which threads run a pipeline's work.
    ///
    /// ```swift
    /// configuration.threading = .shared   // a batch of local files on a few CPUs
    /// ```
    public enum Threading: Sendable, Equatable {
        /// Loads, the jobs' coordination and the processing each have their own threads, so a
        /// slow load never holds a processing thread: what a server or an app wants.
        case separate
        /// One pool of ``Configuration/maximumActiveProcessing`` threads runs all the work, a
        /// render's steps (read, decode, filters, encode) one after another on one thread where
        /// they can, and a thread waiting with ``BlockingWait`` on ``ImagePipeline/executor``
        /// works as one of them meanwhile: what a batch of local files wants, where there is
        /// little to wait for and every extra thread only takes a CPU from the work.
        case shared
    }

    /// Everything an ``ImagePipeline`` works with.
    ///
    /// ```swift
    /// let caches = try registry.cacheLayers(for: config.cacheSettings)   // [caches.*], in file order
    /// var configuration = ImagePipeline.Configuration(registry: registry, variants: config, caches: caches)
    /// configuration.maximumActiveDownloads = 8
    /// configuration.queueOrder = .lifo
    /// configuration.fallback = placeholderPNG
    /// let pipeline = ImagePipeline(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Sources, decoders, filters and encoders.
        public var registry: Registry
        /// The variants requests name, by name.
        public var variants: [String: RenderTarget]
        /// The cache layers, in lookup order. The leading layers that answer immediately
        /// (memory) are asked on the caller's thread before any work; the rest by the render
        /// job. The layer with ``CacheLayer/storesOriginals`` also keeps fetched originals of
        /// sources without a fingerprint (remote ones) with their HTTP metadata, reused while
        /// fresh and revalidated after.
        public var caches: CacheLayers
        /// Loads running at once (default 4; at most 256 threads serve them).
        public var maximumActiveDownloads: Int
        /// Decodes, filters and encodes running at once (default: the active processor count;
        /// at most 256 threads run them).
        public var maximumActiveProcessing: Int
        /// Bytes of pixels the work in flight may hold, across all requests: each decode counts
        /// its decoded pixels and one working copy of them (a filter's output, an encoder's
        /// buffers), estimated from the header and the size hint before decoding, from its
        /// start to the end of its source's renders. Work that does not fit waits in the
        /// processing queue; a decode bigger than the whole budget runs alone. Default 256 MiB;
        /// `nil` for no budget. `[limits] memory` in `filters.d/`.
        public var memoryBudget: Int?
        /// The default ``memoryBudget``: 256 MiB.
        public static let defaultMemoryBudget = 256 * 1024 * 1024
        /// The longest, in seconds, a decode waits for room in ``memoryBudget`` (and a
        /// processing slot) before it fails with ``ImagePipelineBusy`` — a server answers 503
        /// with `Retry-After` (default `nil`: it waits as long as it takes). `[limits]
        /// queue-timeout` in `filters.d/`.
        public var queueTimeout: Double?
        /// FIFO or LIFO within a priority (default FIFO).
        public var queueOrder: QueueOrder
        /// Which threads run the loads, the jobs and the processing (default
        /// ``Threading/separate``).
        public var threading: Threading
        /// Orientation, limits, colour-profile handling and the damage policy for every decode,
        /// as one value (each render's plan sets the size hint). `decoding.colorProfiles =
        /// .ignore` keeps stored pixel values. Damage `decoding.failOn` lets through goes to
        /// `decoding.warnings` with its source; without a handler it is logged as a warning.
        public var decoding: DecodeOptions
        /// Placeholder image bytes rendered through the requested variant when the source (or
        /// its decode) fails; the response says so and carries the original error.
        public var fallback: [UInt8]?
        /// Debug and trace messages; silent at the default `info` level.
        public var logger: Logger
        /// The start of every metric label (`darkroom` → `darkroom_downloads_total`).
        public var metricsPrefix: String
        /// Where metrics go; `nil` (the default) uses the global `MetricsSystem.factory`.
        public var metricsFactory: (any MetricsFactory)?
        /// Counts decodes, filter runs and encodes (for tests and diagnostics).
        public var counters: StageCounters?
        /// How often, in seconds, the pipeline reads the purge log of its shared layers
        /// (`PurgeLog`) to drop sources purged through other servers from its own layers
        /// (default 0.25; `nil` never: then only this process's purges apply to its layers).
        public var purgePollInterval: Double?
        /// Seconds past its freshness a render may still be served when revalidating its
        /// source fails (RFC 5861's `stale-if-error`; default 0: the error is answered).
        public var staleIfError: Double
        /// The longest freshness, in seconds, a source's answer gives its renders (default
        /// `nil`: what the origin says); a source saying nothing leaves them fresh until
        /// their layer drops them.
        public var maximumFreshness: Int?

        /// A configuration over explicit targets and caches (by default one memory layer of
        /// 100 MB, `CacheLayers/memory()`).
        public init(registry: Registry, targets: [RenderTarget] = [], caches: CacheLayers = .memory()) {
            self.registry = registry
            self.variants = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
            self.caches = caches
            self.maximumActiveDownloads = 4
            self.maximumActiveProcessing = ProcessInfo.processInfo.activeProcessorCount
            self.memoryBudget = Self.defaultMemoryBudget
            self.queueTimeout = nil
            self.queueOrder = .fifo
            self.threading = .separate
            self.decoding = DecodeOptions()
            self.fallback = nil
            self.logger = Logger(label: "darkroom.pipeline")
            self.metricsPrefix = "darkroom"
            self.metricsFactory = nil
            self.counters = nil
            self.purgePollInterval = 0.25
            self.staleIfError = 0
            self.maximumFreshness = nil
        }

        /// A configuration over a `filters.d/` configuration's variants and cache layers
        /// (``Registry/cacheLayers(for:environment:)`` builds them from its `[caches.*]`), decoding
        /// as its `[decode]` section says, within its `[limits]`.
        public init(registry: Registry, variants: DarkroomConfig.Configuration, caches: CacheLayers) {
            self.init(registry: registry, targets: variants.variants.map(RenderTarget.init(variant:)), caches: caches)
            self.decoding = variants.decodeSettings.applied(to: decoding)
            apply(variants.limitSettings)
        }

        /// Takes the limits `limits` sets (`[limits]` of `filters.d/`); those it leaves out
        /// keep their values.
        ///
        /// ```swift
        /// configuration.apply(LimitSettings(memory: 1 << 30, maxPixels: 50_000_000))
        /// ```
        public mutating func apply(_ limits: LimitSettings) {
            if let memory = limits.memory { memoryBudget = memory }
            if let maxPixels = limits.maxPixels { decoding.limits.maxPixels = maxPixels }
            if let maxInputSize = limits.maxInputSize { decoding.limits.maxInputBytes = maxInputSize }
            if let maxFrames = limits.maxFrames { decoding.limits.maxFrames = maxFrames }
            if let queueTimeout = limits.queueTimeout { self.queueTimeout = queueTimeout }
        }
    }
}
