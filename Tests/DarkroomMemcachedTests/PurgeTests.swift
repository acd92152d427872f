import Darkroom
import DarkroomMemcached
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Purges on the shared layer, against real memcached processes

@Suite("A purge on the memcached layer holds for every client at once, and its log reaches their own layers")
struct PurgeTests {
    static func client(_ server: LoopbackMemcached) throws -> MemcachedCache {
        try MemcachedCache(settings: MemcachedSettings.loopback(server.port))
    }

    static let image = CachedImage(bytes: Array(repeating: 9, count: 3000), format: .png)

    @Test("a source purged through one client is a miss for every client, and other sources stay")
    func purgeBySource() async throws {
        let server = try await LoopbackMemcached.launch()
        let one = try Self.client(server), two = try Self.client(server)
        let a = CacheKey(source: "/a.jpg", variant: "thumb"), a2 = CacheKey(source: "/a.jpg", variant: "avatar")
        let b = CacheKey(source: "/b.jpg", variant: "thumb")
        for key in [a, a2, b] { try one.store(Self.image, for: key) }
        #expect(try two.value(for: a) == Self.image)
        #expect(try await two.removeAll(forSource: "/a.jpg") == 0)
        #expect(try one.value(for: a) == nil)
        #expect(try one.value(for: a2) == nil)
        #expect(try one.value(for: b) == Self.image)
        // Stored again after the purge: served again.
        try one.store(Self.image, for: a)
        #expect(try two.value(for: a) == Self.image)
    }

    @Test("a generation evicted after a purge never brings the purged entries back")
    func evictedGeneration() async throws {
        let server = try await LoopbackMemcached.launch()
        let cache = try Self.client(server)
        let key = CacheKey(source: "/a.jpg", variant: "thumb")
        try cache.store(Self.image, for: key)
        let entry = try #require(try RawMemcached.get(MemcachedCache.itemName(key), port: server.port))
        _ = try await cache.removeAll(forSource: "/a.jpg")
        let generation = "darkroom:gen:" + CacheKey.sha256Hex("/a.jpg")
        try RawMemcached.delete(generation, port: server.port)
        #expect(try cache.value(for: key) == nil)
        // A new store makes a new generation; the old entry put back behind its back is refused.
        try cache.store(Self.image, for: CacheKey(source: "/a.jpg", variant: "other"))
        try RawMemcached.set(MemcachedCache.itemName(key), entry, port: server.port)
        #expect(try cache.value(for: key) == nil)
        #expect(cache.statistics.rejected >= 1)
    }

    @Test("the purge log lists the sources purged since a position, and says when it lost some")
    func purgeLog() async throws {
        let server = try await LoopbackMemcached.launch()
        let follower = try Self.client(server), purger = try Self.client(server)
        let start = try follower.purgeLogPosition()
        #expect(try follower.purges(after: start) == PurgeLogPage(position: start, sources: []))
        _ = try await purger.removeAll(forSource: "/a.jpg")
        _ = try await purger.removeAll(forSource: "https://127.0.0.1/b.jpg")
        let page = try follower.purges(after: start)
        #expect(page.sources == ["/a.jpg", "https://127.0.0.1/b.jpg"])
        #expect(page.position == start + 2)
        #expect(try follower.purges(after: page.position).sources == [])
        // Far behind (or the counter reset): the follower must drop everything.
        try RawMemcached.set("darkroom:purges", Array("\(page.position + 1000)".utf8), port: server.port)
        #expect(try follower.purges(after: page.position).sources == nil)
        try RawMemcached.set("darkroom:purges", Array("1".utf8), port: server.port)
        #expect(try follower.purges(after: page.position).sources == nil)
    }

    @Test("a pipeline drops a source purged through another pipeline from its memory layer")
    func followerEmptiesMemory() async throws {
        let servers = try await LoopbackMemcached.launch(count: 2)
        let configuration = MemcachedCacheTests.configuration(servers: servers.map(\.address))
        let root = MemcachedCacheTests.root
        let one = try MemcachedCacheTests.pipeline(configuration, root: root)
        let two = try MemcachedCacheTests.pipeline(configuration, root: root)
        let rendered = try await one.image(for: "gradient.jpg", variant: "thumb")
        #expect(try await two.image(for: "gradient.jpg", variant: "thumb").bytes == rendered.bytes)
        _ = try await one.image(for: "gradient-rgb.png", variant: "thumb")
        #expect(one.cachedImage(for: "gradient.jpg", variant: "thumb") != nil)
        // Give pipeline one's follower time to read the log's start: it polls every 0.25 s.
        let started = ContinuousClock.now
        let (key, results) = try await two.removeCachedImages(for: "gradient.jpg")
        #expect(key == URL(fileURLWithPath: root).resolvingSymlinksInPath().appendingPathComponent("gradient.jpg").path)
        #expect(results.map(\.layer) == ["memory", "shared"])
        #expect(two.cachedImage(for: "gradient.jpg", variant: "thumb") == nil)
        while one.cachedImage(for: "gradient.jpg", variant: "thumb") != nil, ContinuousClock.now - started < .seconds(60) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(one.cachedImage(for: "gradient.jpg", variant: "thumb") == nil, "pipeline one followed the purge")
        #expect(one.cachedImage(for: "gradient-rgb.png", variant: "thumb") != nil, "other sources stay")
        let again = try await one.image(for: "gradient.jpg", variant: "thumb")
        #expect(again.cacheLayer == .rendered, "the shared entry is gone too")
    }
}
