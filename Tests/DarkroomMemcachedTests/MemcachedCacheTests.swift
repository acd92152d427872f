import Darkroom
import DarkroomMemcached
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - The memcached layer, against real memcached processes

@Suite("A memcached layer is shared by pipelines, verified on every read, and a miss when down")
struct MemcachedCacheTests {
    static let registry: Registry = {
        var registry = Registry.standard
        registry.registerMemcachedCacheKind()
        return registry
    }()

    static let variantText = """
        [variants.thumb]
        filters = [ { filter = "aspect-fit", width = 32, height = 32 } ]
        format = "png"

        """

    /// A configuration with a memory layer then a `shared` memcached layer over `servers`.
    static func configuration(servers: [String], timeout: String = "1s") -> Configuration {
        ConfigLoader.load(
            sources: [(name: "cluster.toml", text: variantText
                + LoopbackMemcached.cacheTables(servers: servers, timeout: timeout, extra: "max-age = \"1h\""))],
            filters: registry.filters)
    }

    /// One "server": its own pipeline (own memory) over the shared configuration and a file root.
    static func pipeline(_ configuration: Configuration, root: String) throws -> ImagePipeline {
        let registry = try Self.registry.registeringSources(of: configuration.sourceTables)
        var withFiles = registry
        withFiles.register(source: try FileSource(root: root))
        let caches = try withFiles.cacheLayers(for: configuration.cacheSettings, environment: [:])
        var settings = ImagePipeline.Configuration(registry: withFiles, variants: configuration, caches: caches)
        settings.counters = StageCounters()
        return ImagePipeline(configuration: settings)
    }

    static var root: String { Fixtures.directory.path }

    @Test("a variant rendered by one pipeline is answered by the others from the shared layer, with no render")
    func sharedAcrossPipelines() async throws {
        let servers = try await LoopbackMemcached.launch(count: 2)
        let configuration = Self.configuration(servers: servers.map(\.address))
        #expect(configuration.errors.isEmpty, "\(configuration.errors)")
        #expect(Self.registry.cacheDiagnostics(for: configuration.cacheSettings).isEmpty)
        let first = try Self.pipeline(configuration, root: Self.root)
        let rendered = try await first.image(for: "gradient.jpg", variant: "thumb")
        #expect(rendered.cacheLayer == .rendered)
        for _ in 0..<2 {
            let other = try Self.pipeline(configuration, root: Self.root)
            let answer = try await other.image(for: "gradient.jpg", variant: "thumb")
            #expect(answer.cacheLayer.rawValue == "shared")
            #expect(answer.bytes == rendered.bytes)
            #expect(other.configuration.counters?.decodes == 0, "no render on the other servers")
            #expect(try await other.image(for: "gradient.jpg", variant: "thumb").cacheLayer == .memory)
        }
    }

    @Test("a value stored under one key and read under another, or cut short, is a miss")
    func verifiedReads() async throws {
        let server = try await LoopbackMemcached.launch()
        let cache = try MemcachedCache(settings: MemcachedSettings.loopback(server.port))
        let a = CacheKey(source: "/a.jpg", variant: "thumb")
        let b = CacheKey(source: "/b.jpg", variant: "thumb")
        let image = CachedImage(bytes: Array(repeating: 7, count: 5000), format: .png)
        try cache.store(image, for: a)
        #expect(try cache.value(for: a) == image)
        #expect(try cache.value(for: b) == nil)

        // Another key's value copied under b's item name: refused (its key digest differs).
        let other = try MemcachedCache(settings: MemcachedSettings.loopback(server.port))
        try RawMemcached.copy(from: MemcachedCache.itemName(a), to: MemcachedCache.itemName(b), port: server.port)
        #expect(try other.value(for: b) == nil)
        // The value cut short, and a foreign value: refused.
        try RawMemcached.truncate(MemcachedCache.itemName(a), keeping: 3000, port: server.port)
        #expect(try cache.value(for: a) == nil)
        try RawMemcached.set(MemcachedCache.itemName(a), Array("hello".utf8), port: server.port)
        #expect(try cache.value(for: a) == nil)
        #expect(cache.statistics.rejected >= 2)
    }

    @Test("a render keeps its source's freshness and validators through memcached, so every server revalidates alike")
    func freshnessRoundTrip() async throws {
        let server = try await LoopbackMemcached.launch()
        let cache = try MemcachedCache(settings: MemcachedSettings.loopback(server.port))
        let fresh = CachedImage(
            bytes: Array(repeating: 9, count: 3000), format: .jpeg, etag: "\"v1é\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT",
            maxAge: 600, storedAt: 1_795_000_000.25)
        let bare = CachedImage(bytes: [1, 2, 3], format: .png)
        let noValidators = CachedImage(bytes: [4, 5], format: .webp, maxAge: 0, storedAt: 12)
        for (index, image) in [fresh, bare, noValidators].enumerated() {
            let key = CacheKey(source: "/fresh\(index).jpg", variant: "thumb")
            try cache.store(image, for: key)
            let read = try #require(try cache.value(for: key))
            #expect(read == image)
            #expect(read.etag == image.etag && read.lastModified == image.lastModified)
            #expect(read.maxAge == image.maxAge && read.storedAt == image.storedAt)
        }
    }

    @Test("with memcached killed, requests are answered (rendered or from memory), never failed, within the timeout")
    func downIsAMiss() async throws {
        let server = try await LoopbackMemcached.launch()
        let configuration = Self.configuration(servers: [server.address], timeout: "50ms")
        let pipeline = try Self.pipeline(configuration, root: Self.root)
        #expect(try await pipeline.image(for: "gradient.jpg", variant: "thumb").cacheLayer == .rendered)
        server.kill()
        let restarted = try Self.pipeline(configuration, root: Self.root)
        let start = ContinuousClock.now
        let answer = try await restarted.image(for: "gradient.jpg", variant: "thumb")
        #expect(answer.cacheLayer == .rendered)
        #expect(ContinuousClock.now - start < .seconds(600), "answered, not hung (a loose bound: the full test run can stall)")
        #expect(try await restarted.image(for: "gradient.jpg", variant: "thumb").cacheLayer == .memory)
        // Nobody listens on a fresh port at all.
        let nowhere = Self.configuration(servers: ["127.0.0.1:\(try LoopbackMemcached.freePort())"], timeout: "50ms")
        #expect(try await Self.pipeline(nowhere, root: Self.root).image(for: "gradient.jpg", variant: "thumb").cacheLayer == .rendered)
    }

    @Test("a stuck memcached costs one timeout, then is skipped at once, and is used again when it answers")
    func stuckThenRecovered() async throws {
        let server = try await LoopbackMemcached.launch()
        var settings = MemcachedSettings.loopback(server.port)
        settings.timeout = 1
        settings.retryAfter = 1
        let cache = try MemcachedCache(settings: settings)
        let key = CacheKey(source: "/a.jpg", variant: "thumb")
        let image = CachedImage(bytes: Array(repeating: 3, count: 1000), format: .png)
        try cache.store(image, for: key)
        server.pause()
        defer { server.resume() }
        #expect(throws: MemcachedError.self) { try cache.value(for: key) }
        #expect(cache.statistics.timeouts == 1)
        #expect(throws: MemcachedError.self) { try cache.value(for: key) }
        #expect(cache.statistics.skipped == 1, "the next operation is refused without waiting")
        #expect(cache.statistics.timeouts == 1)
        server.resume()
        let deadline = ContinuousClock.now + .seconds(60)
        var recovered: CachedImage?
        while recovered == nil, ContinuousClock.now < deadline {
            recovered = try? cache.value(for: key)
            if recovered == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(recovered == image, "the layer is used again once memcached answers")
    }

    @Test("a render over the server's item size limit is not stored, and counted")
    func tooLarge() async throws {
        let server = try await LoopbackMemcached.launch()  // 1 MB items
        let cache = try MemcachedCache(settings: MemcachedSettings.loopback(server.port))
        let key = CacheKey(source: "/big.png", variant: "thumb")
        #expect(throws: MemcachedError.self) { try cache.store(CachedImage(bytes: Array(repeating: 1, count: 2 << 20), format: .png), for: key) }
        #expect(try cache.value(for: key) == nil)
        #expect(cache.statistics.tooLarge == 1)
    }

    @Test("the table's errors name their file:line")
    func tableErrors() {
        let configuration = ConfigLoader.load(
            sources: [(name: "c.toml", text: "[caches.shared]\ntype = \"memcached\"\nservers = [\"127.0.0.1:99999\"]\ntimeout = \"5m\"\n")],
            filters: Self.registry.filters)
        let lines = Self.registry.cacheDiagnostics(for: configuration.cacheSettings).map(\.description)
        #expect(lines == ["c.toml:3: [caches.shared] servers entry '127.0.0.1:99999' is not HOST:PORT with a port from 1 to 65535"])
        let missing = ConfigLoader.load(sources: [(name: "c.toml", text: "[caches.shared]\ntype = \"memcached\"\n")], filters: Self.registry.filters)
        #expect(Self.registry.cacheDiagnostics(for: missing.cacheSettings).map(\.description)
            == ["c.toml:1: [caches.shared] servers must list at least one server as \"HOST:PORT\""])
    }
}

extension MemcachedSettings {
    /// One loopback memcached, with a timeout long enough that a loaded test machine never
    /// turns an answer into a timeout (the default 50 ms did, in a full parallel run).
    static func loopback(_ port: Int, timeout: Double = 2) -> MemcachedSettings {
        var settings = MemcachedSettings(servers: [.init(host: "127.0.0.1", port: port)])
        settings.timeout = timeout
        return settings
    }
}
