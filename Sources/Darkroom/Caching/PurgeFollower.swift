import DarkroomCore
import Logging
import Synchronization

// MARK: - PurgeFollower

/// Keeps a process's own cache layers in step with purges made through other processes: it
/// polls the purge log of every shared layer that keeps one (`PurgeLog`) and removes each
/// purged source from the other layers (memory, local disk). When a log lost entries it
/// empties those layers, which is always safe.
///
/// ``ImagePipeline`` runs one when its layers include a purge log (every
/// ``ImagePipeline/Configuration/purgePollInterval`` seconds, on its I/O threads).
///
/// ```swift
/// let follower = PurgeFollower(caches: layers)
/// try await follower.start()              // from the newest purge on
/// let applied = await follower.poll()     // sources removed since
/// ```
public final class PurgeFollower: Sendable {
    /// The layers followed: the purge logs among them are read, and the purges they list are
    /// applied to the others.
    public let caches: CacheLayers
    private let logger: Logger
    /// The layers that keep a purge log, with their index.
    private let logs: [(index: Int, name: String, log: any PurgeLog)]
    /// The layers that keep none: where purges read from the logs are applied.
    private let localLayers: [CacheLayer]
    /// Per log layer (by index in ``caches``), the position read up to; absent until started.
    private let positions = Mutex<[Int: UInt64]>([:])
    /// The log layers whose failure to answer was logged, and not their recovery yet: a layer
    /// that stays down is logged once, not at every poll.
    private let reportedDown = Mutex<Set<Int>>([])

    /// Creates a follower for the purge logs among `caches`; nothing is read until ``start()``
    /// or ``poll()``. `logger` reports logs that cannot be read, and their recovery.
    public init(caches: CacheLayers, logger: Logger = Logger(label: "darkroom.purge")) {
        self.caches = caches
        self.logger = logger
        logs = caches.layers.enumerated().compactMap { index, layer in
            (layer.cache as? any PurgeLog).map { (index, layer.name, $0) }
        }
        localLayers = caches.layers.filter { !($0.cache is any PurgeLog) }
    }

    /// Whether any layer keeps a purge log.
    public var hasLogs: Bool { !logs.isEmpty }

    /// Starts following every log from its newest purge (a log that cannot answer now is
    /// started on a later ``poll()``).
    public func start() async {
        for (index, name, log) in logs {
            do {
                let position = try await log.purgeLogPosition()
                positions.withLock { $0[index] = $0[index] ?? position }
                noteAnswered(index, name)
            } catch {
                noteFailed(index, name, error)
            }
        }
    }

    /// Reads every log once and applies what it says to the layers that keep no log: the
    /// number of sources removed (an emptied layer counts as one).
    @discardableResult
    public func poll() async -> Int {
        var applied = 0
        for (index, name, log) in logs {
            guard let position = positions.withLock({ $0[index] }) else {
                await start()
                continue
            }
            do {
                let page = try await log.purges(after: position)
                if let sources = page.sources {
                    for source in sources { await removeLocally(source) }
                    applied += sources.count
                } else {
                    logger.notice("purge log lost entries: emptying the local layers", metadata: ["layer": .string(name)])
                    await emptyLocalLayers()
                    applied += 1
                }
                positions.withLock { $0[index] = page.position }
                noteAnswered(index, name)
            } catch {
                noteFailed(index, name, error)
            }
        }
        return applied
    }

    /// Polls every `interval` seconds on `executor` until `follower` is released.
    static func run(_ follower: PurgeFollower, every interval: Double, on executor: any TaskExecutor) {
        Task.detached(executorPreference: executor) { [weak follower] in
            await follower?.start()
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                guard let follower else { return }
                await follower.poll()
            }
        }
    }

    // MARK: - Reporting

    private func noteFailed(_ index: Int, _ name: String, _ error: any Error) {
        if reportedDown.withLock({ $0.insert(index).inserted }) {
            logger.warning("purge log not readable (following it again once it answers): \(error)", metadata: ["layer": .string(name)])
        } else {
            logger.debug("purge log still not readable: \(error)", metadata: ["layer": .string(name)])
        }
    }

    private func noteAnswered(_ index: Int, _ name: String) {
        if reportedDown.withLock({ $0.remove(index) != nil }) {
            logger.notice("purge log readable again", metadata: ["layer": .string(name)])
        }
    }

    // MARK: - Applying

    private func removeLocally(_ source: String) async {
        for layer in localLayers {
            do {
                _ = try await layer.cache.removeAll(forSource: source)
            } catch {
                logger.warning("purge not applied: \(error)", metadata: ["layer": .string(layer.name), "source": .string(source)])
            }
        }
    }

    private func emptyLocalLayers() async {
        for layer in localLayers {
            do {
                try await layer.cache.removeAll()
            } catch {
                logger.warning("layer not emptied: \(error)", metadata: ["layer": .string(layer.name)])
            }
        }
    }
}
