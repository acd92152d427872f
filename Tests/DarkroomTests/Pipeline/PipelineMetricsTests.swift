import CoreMetrics
import Darkroom
import DarkroomCore
import MetricsTestKit
import Testing

// MARK: - Metrics

@Suite("The pipeline records downloads, cache lookups, coalescing, queue depths and stage durations")
struct PipelineMetricsTests {
    @Test("a miss, a shared render and a memory hit are counted under the configured prefix")
    func counted() async throws {
        let metrics = TestMetrics()
        let source = GatedSource(["cat": PipelineFixture.photoJPEG])
        var configuration = PipelineFixture.configuration(source: source)
        configuration.metricsFactory = metrics
        configuration.metricsPrefix = "test"
        let pipeline = ImagePipeline(configuration: configuration)

        let first = pipeline.request(ImageRequest(location: "gated:cat", variant: .named("circle")))
        let shared = pipeline.request(ImageRequest(location: "gated:cat", variant: .named("circle")))
        #expect(await eventually { source.started.count == 1 })
        source.openAll()
        _ = try await first.response
        _ = try await shared.response
        let hit = try await pipeline.image(for: "gated:cat", variant: "circle")
        #expect(hit.cacheLayer == .memory)

        #expect(try metrics.expectCounter("test_downloads_total").totalValue == 1)
        #expect(try metrics.expectCounter("test_download_bytes_total").totalValue == Int64(PipelineFixture.photoJPEG.count))
        #expect(try metrics.expectCounter("test_cache_lookups_total", [("layer", "memory"), ("result", "hit")]).totalValue == 1)
        #expect(try metrics.expectCounter("test_coalesced_total", [("stage", "render")]).totalValue == 1)
        for stage in ["fetch", "decode", "filter", "encode"] {
            let timer = try metrics.expectTimer("test_stage_duration_seconds", [("stage", stage)])
            #expect(!timer.values.isEmpty, "no \(stage) duration")
        }
        #expect(try metrics.expectGauge("test_queue_depth", [("queue", "downloads")]).lastValue == 0)
        #expect(try metrics.expectGauge("test_queue_depth", [("queue", "processing")]).lastValue == 0)
    }
}
