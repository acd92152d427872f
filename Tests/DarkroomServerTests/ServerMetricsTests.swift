import DarkroomServer
import Prometheus
import Testing

// MARK: - Metrics

@Suite("With metrics, the server counts responses and serves the pipeline's metrics at /metrics")
struct ServerMetricsTests {
    @Test("/metrics shows responses by status and cache lookups by layer, in Prometheus' text format")
    func exposition() async throws {
        let registry = PrometheusCollectorRegistry()
        let metrics = ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)) { registry.emitToBuffer() }
        let server = try ServerFixture().server(metrics: metrics)
        _ = await server.get("/thumb/gradient.jpg")
        _ = await server.get("/thumb/gradient.jpg")
        _ = await server.get("/thumb/missing.jpg")
        let response = await server.get("/metrics")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = response.text
        #expect(text.contains(#"darkroom_http_responses_total{status="200"} 2"#), "\(text)")
        #expect(text.contains(#"darkroom_http_responses_total{status="404"} 1"#), "\(text)")
        #expect(text.contains(#"darkroom_cache_lookups_total{layer="memory",result="hit"} 1"#), "\(text)")
        #expect(text.contains("darkroom_stage_duration_seconds"), "\(text)")
    }

    @Test("Without metrics, /metrics is 404 saying how to turn them on")
    func off() async throws {
        let response = await (try ServerFixture().server()).get("/metrics")
        #expect(response.status == 404)
        #expect(response.text.contains("--metrics"))
    }
}
