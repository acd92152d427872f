import Logging
import Synchronization

// MARK: - LayerFailureLog

/// Logs cache-layer failures at most once per layer every ``interval`` seconds, with the
/// number left unlogged since: a shared layer that is down fails every request, and one
/// warning per request would bury everything else in the log. The metrics still count each.
///
/// ```swift
/// let failures = LayerFailureLog(logger: logger)
/// failures.report("shared", "lookup", error)   // logged
/// failures.report("shared", "lookup", error)   // counted, logged with the next one due
/// ```
final class LayerFailureLog: Sendable {
    let interval: Duration
    private let logger: Logger
    private let state = Mutex<[String: (logged: ContinuousClock.Instant, unlogged: Int)]>([:])

    init(logger: Logger, interval: Duration = .seconds(10)) {
        self.logger = logger
        self.interval = interval
    }

    /// Logs `error` of `operation` on `layer` as a warning, unless one was logged for the
    /// layer less than ``interval`` ago (then at debug level, and counted).
    func report(_ layer: String, _ operation: String, _ error: any Error, metadata: Logger.Metadata = [:]) {
        let now = ContinuousClock.now
        let unlogged: Int? = state.withLock { state in
            if let last = state[layer], now - last.logged < interval {
                state[layer] = (last.logged, last.unlogged + 1)
                return nil
            }
            let unlogged = state[layer]?.unlogged ?? 0
            state[layer] = (now, 0)
            return unlogged
        }
        var metadata = metadata
        metadata["layer"] = .string(layer)
        guard let unlogged else {
            logger.debug("cache layer failed to \(operation): \(error)", metadata: metadata)
            return
        }
        if unlogged > 0 { metadata["unlogged_failures"] = .stringConvertible(unlogged) }
        logger.warning("cache layer failed to \(operation): \(error)", metadata: metadata)
    }
}
