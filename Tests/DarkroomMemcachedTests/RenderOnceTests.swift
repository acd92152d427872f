import Darkroom
import DarkroomMemcached
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - One render per cluster

@Suite("Pipelines sharing a memcached layer render each variant once, and never wait past a lease")
struct RenderOnceTests {
    static func configuration(servers: [String], lease: String) -> Configuration {
        ConfigLoader.load(
            sources: [(name: "cluster.toml", text: MemcachedCacheTests.variantText
                + LoopbackMemcached.cacheTables(servers: servers, timeout: "1s", extra: "lease = \"\(lease)\""))],
            filters: MemcachedCacheTests.registry.filters)
    }

    @Test("60 concurrent requests spread over 3 pipelines: exactly one render, every answer byte-identical")
    func oneRender() async throws {
        let servers = try await LoopbackMemcached.launch(count: 2)
        let configuration = Self.configuration(servers: servers.map(\.address), lease: "10s")
        #expect(configuration.errors.isEmpty, "\(configuration.errors)")
        let pipelines = try (0..<3).map { _ in try MemcachedCacheTests.pipeline(configuration, root: MemcachedCacheTests.root) }
        let answers = try await withThrowingTaskGroup(of: ImageResponse.self) { group in
            for index in 0..<60 {
                let pipeline = pipelines[index % 3]
                group.addTask { try await pipeline.image(for: "gradient.jpg", variant: "thumb") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let encodes = pipelines.map { $0.configuration.counters?.encodes ?? -1 }
        #expect(encodes.reduce(0, +) == 1, "encodes per pipeline: \(encodes)")
        #expect(Set(answers.map(\.bytes)).count == 1)
        #expect(answers.count == 60)
    }

    @Test("a lease held by a server that died delays the others by about the lease, then one renders")
    func deadHolder() async throws {
        let server = try await LoopbackMemcached.launch()
        let configuration = Self.configuration(servers: [server.address], lease: "1s")
        // A "server" that took the lease and died: nobody releases it.
        let dead = try MemcachedCache(settings: MemcachedSettings.loopback(server.port))
        let pipeline = try MemcachedCacheTests.pipeline(configuration, root: MemcachedCacheTests.root)
        let key = try #require(try Self.renderKey(pipeline, configuration))
        #expect(try dead.acquireLease(for: key))
        let start = ContinuousClock.now
        let answer = try await pipeline.image(for: "gradient.jpg", variant: "thumb")
        let waited = ContinuousClock.now - start
        #expect(answer.cacheLayer == .rendered)
        #expect(waited >= .milliseconds(500), "it waited for the holder")
        // The bound that matters (about the lease, then one render) is checked by counting: one
        // render, after waiting. The wall-clock bound is loose: the full parallel test run can
        // slow one request many times over.
        #expect(waited < .seconds(600), "it ended: \(waited)")
        #expect(pipeline.configuration.counters?.encodes == 1)
    }

    /// The key the pipeline renders `thumb` of the fixture `gradient.jpg` under.
    static func renderKey(_ pipeline: ImagePipeline, _ configuration: Configuration) throws -> CacheKey? {
        let source = try pipeline.configuration.registry.source(for: "gradient.jpg")
        let identity = try source.identity(for: "gradient.jpg")
        guard let variant = configuration.variant(named: "thumb") else { return nil }
        return CacheKey.rendered(sourceKey: identity.key, fingerprint: identity.fingerprint, variant: RenderTarget(variant: variant).identifier)
    }
}
