import CoreMetrics

// MARK: - ServerMetrics

/// Where an ``ImageServer``'s metrics go, and what `GET /metrics` answers.
///
/// With metrics set, the server counts its responses (`darkroom_http_responses_total`, by
/// `status`), hands `factory` to its pipeline (downloads, cache lookups by layer, coalesced
/// work, stage durations, queue depths: see the README), and serves `exposition()` at
/// `/metrics`. `darkroom-server --metrics` uses swift-prometheus:
///
/// ```swift
/// let registry = PrometheusCollectorRegistry()
/// settings.metrics = ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)) {
///     registry.emitToBuffer()
/// }
/// ```
public struct ServerMetrics: Sendable {
    /// Where the counters, timers and gauges go.
    public let factory: any MetricsFactory
    /// The start of every label (`darkroom` → `darkroom_http_responses_total`).
    public let prefix: String
    /// The `text/plain` exposition `/metrics` answers (Prometheus' text format).
    public let exposition: @Sendable () -> [UInt8]
    /// Whether `/metrics` adds the process's own figures (``ProcessMetrics``: CPU, memory,
    /// open files) after `exposition`; turn it off when the registry already has them.
    public var includesProcessMetrics = true

    /// Creates metrics sent to `factory`, with labels starting `prefix_` (none when `prefix` is
    /// empty), and `/metrics` answering what `exposition` returns.
    public init(factory: any MetricsFactory, prefix: String = "darkroom", exposition: @escaping @Sendable () -> [UInt8]) {
        self.factory = factory
        self.prefix = prefix
        self.exposition = exposition
    }

    /// What `GET /metrics` answers: `exposition` and, unless turned off, the process's figures.
    func scrape() -> [UInt8] {
        var text = exposition()
        if includesProcessMetrics, let process = ProcessMetrics.read() {
            if let last = text.last, last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
            text += Array(process.exposition.utf8)
        }
        return text
    }

    /// Counts one response.
    func record(status: Int) {
        let label = prefix.isEmpty ? "http_responses_total" : prefix + "_http_responses_total"
        Counter(label: label, dimensions: [("status", String(status))], factory: factory).increment()
    }
}
