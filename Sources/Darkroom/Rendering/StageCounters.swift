import Synchronization

// MARK: - StageCounters

/// Counts how often each pipeline stage really ran — decodes, each filter-chain prefix,
/// encodes — so deduplication and prefix sharing can be observed (and tested) by counting,
/// not timing. Thread-safe.
///
/// ```swift
/// let counters = StageCounters()
/// _ = try renderer.render(bytes, targets: targets, counters: counters)
/// counters.decodes            // 1
/// counters.filterRuns["aspect-fill(gravity=center,height=128,width=128)"] // 1
/// ```
public final class StageCounters: Sendable {
    private struct State {
        var decodes = 0
        var encodes = 0
        var filterRuns: [String: Int] = [:]
    }

    private let state = Mutex(State())

    /// Creates counters that all start at zero.
    public init() {}

    /// Decodes performed.
    public var decodes: Int { state.withLock { $0.decodes } }
    /// Encodes performed.
    public var encodes: Int { state.withLock { $0.encodes } }
    /// Filter applications, keyed by the identifier of the chain prefix they produced.
    public var filterRuns: [String: Int] { state.withLock { $0.filterRuns } }
    /// All filter applications.
    public var totalFilterRuns: Int { state.withLock { $0.filterRuns.values.reduce(0, +) } }

    func recordDecode() { state.withLock { $0.decodes += 1 } }
    func recordEncode() { state.withLock { $0.encodes += 1 } }
    func recordFilterRun(prefix: String) { state.withLock { $0.filterRuns[prefix, default: 0] += 1 } }
}
