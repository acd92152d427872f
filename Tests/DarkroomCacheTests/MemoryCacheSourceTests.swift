@testable import DarkroomCache
import DarkroomCore
import Testing

// MARK: - Sources and keys

@Suite("The memory cache names images by identifier or by source + variant, and purges a source exactly")
struct MemoryCacheSourceTests {
    typealias T = MemoryTestImages

    @Test("removing a source removes exactly its variants, from every way of adding, and leaves the rest")
    func purgeBySource() throws {
        let cache = AutoPurgingImageCache(memoryCapacity: 100_000, preferredMemoryUsageAfterPurge: 50_000)
        cache.add(T.image(bytes: 40, key: 1), for: "/cat.jpg")
        cache.add(T.image(bytes: 40, key: 2), for: "/cat.jpg", withIdentifier: "thumb")
        cache.add(T.image(bytes: 40, key: 3), forKey: CacheKey(source: "/cat.jpg", variant: "blur(3)"))
        cache.add(T.image(bytes: 40, key: 4), withIdentifier: "cat-avatar", source: "/cat.jpg")
        // Look-alike sources and unsourced entries must survive.
        cache.add(T.image(bytes: 40, key: 5), for: "/cat.jpg.bak", withIdentifier: "thumb")
        cache.add(T.image(bytes: 40, key: 6), for: "/cat", withIdentifier: "thumb")
        cache.add(T.image(bytes: 40, key: 7), for: "/dog.jpg", withIdentifier: "thumb")
        cache.add(T.image(bytes: 40, key: 8), withIdentifier: "v1|/cat.jpg|plain")  // no source given
        cache.insert(T.image(bytes: 40, key: 9), forKey: "v1|/cat.jpg|protocol")  // ImageCache: no source

        #expect(cache.removeImages(forSource: "/cat.jpg") == 4)
        let left = cache.state.withLock { s in s.store.keysByRecency.compactMap { s.store.peekValue(forKey: $0) } }
        #expect(Set(left.compactMap { T.tag(of: $0)?.key }) == [5, 6, 7, 8, 9])
        #expect(cache.image(for: "/cat.jpg", withIdentifier: "thumb") == nil)
        #expect(cache.memoryUsage == 5 * 40)
        #expect(cache.removeImages(forSource: "/cat.jpg") == 0)
        #expect(cache.removeImages(forSource: "/never") == 0)
        try cache.validateInvariants()
    }

    @Test("the source index follows evictions, removals and re-adding under another source")
    func sourceIndexFollowsChanges() throws {
        let cache = AutoPurgingImageCache(memoryCapacity: 400, preferredMemoryUsageAfterPurge: 200)
        for i in 0..<4 { cache.add(T.image(bytes: 100, key: i), for: i.isMultiple(of: 2) ? "even" : "odd", withIdentifier: "\(i)") }
        cache.add(T.image(bytes: 100, key: 4), for: "even", withIdentifier: "4")  // evicts 0, 1, 2
        #expect(Set(cache.identifiers(forSource: "even")) == [AutoPurgingImageCache.identifier(for: "even", withIdentifier: "4")])
        #expect(cache.identifiers(forSource: "odd") == [AutoPurgingImageCache.identifier(for: "odd", withIdentifier: "3")])
        cache.removeImage(for: "odd", withIdentifier: "3")
        #expect(cache.identifiers(forSource: "odd").isEmpty)
        // The same identifier re-added with another source belongs to the new source only.
        cache.add(T.image(bytes: 100, key: 5), withIdentifier: "shared", source: "even")
        cache.add(T.image(bytes: 100, key: 6), withIdentifier: "shared", source: "odd")
        #expect(cache.removeImages(forSource: "even") == 1)
        #expect(T.tag(of: try #require(cache.image(withIdentifier: "shared")))?.key == 6)
        #expect(cache.removeImages(forSource: "odd") == 1)
        #expect(cache.count == 0)
        try cache.validateInvariants()
    }

    @Test("the request form keys by source and additional identifier, the same key as CacheKey")
    func requestFormKeys() throws {
        let cache = AutoPurgingImageCache()
        cache.add(T.image(bytes: 8, key: 1), for: "/a.png", withIdentifier: "thumb")
        cache.add(T.image(bytes: 8, key: 2), for: "/a.png")
        cache.add(T.image(bytes: 8, key: 3), for: "/b.png", withIdentifier: "thumb")
        #expect(T.tag(of: try #require(cache.image(for: "/a.png", withIdentifier: "thumb")))?.key == 1)
        #expect(T.tag(of: try #require(cache.image(for: "/a.png")))?.key == 2)
        #expect(T.tag(of: try #require(cache.image(for: "/b.png", withIdentifier: "thumb")))?.key == 3)
        #expect(cache.image(for: "/a.png", withIdentifier: "other") == nil)

        let key = CacheKey(source: "/a.png", variant: "thumb")
        #expect(AutoPurgingImageCache.identifier(for: "/a.png", withIdentifier: "thumb") == key.string)
        #expect(T.tag(of: try #require(cache.image(forKey: key)))?.key == 1)
        #expect(T.tag(of: try #require(cache.image(withIdentifier: key.string)))?.key == 1)
        #expect(T.tag(of: try #require(cache.image(forKey: .original(source: "/a.png"))))?.key == 2)

        #expect(cache.removeImage(for: "/a.png", withIdentifier: "thumb"))
        #expect(!cache.removeImage(for: "/a.png", withIdentifier: "thumb"))
        #expect(cache.image(forKey: key) == nil)
        #expect(cache.removeImage(forKey: .original(source: "/a.png")))
        #expect(cache.count == 1)
    }

    @Test("the KeyValueCache protocol reads, replaces and removes by string key")
    func imageCacheConformance() throws {
        func exercise<C: KeyValueCache>(_ cache: C, _ a: Image, _ b: Image) -> [Image?] where C.Value == Image {
            cache.insert(a, forKey: "k")
            let first = cache.value(forKey: "k")
            cache.insert(b, forKey: "k")
            let second = cache.value(forKey: "k")
            cache.removeValue(forKey: "k")
            let removed = cache.value(forKey: "k")
            cache.insert(a, forKey: "x")
            cache.removeAll()
            return [first, second, removed, cache.value(forKey: "x")]
        }
        let a = T.image(bytes: 8, key: 1), b = T.image(bytes: 12, key: 2)
        let cache = AutoPurgingImageCache()
        #expect(exercise(cache, a, b) == [a, b, nil, nil])
        #expect(cache.memoryUsage == 0)
        try cache.validateInvariants()
    }

    @Test("removeAllImages reports whether anything was there and empties every index")
    func removeAll() throws {
        let cache = AutoPurgingImageCache()
        #expect(!cache.removeAllImages())
        cache.add(T.image(bytes: 8), for: "s", withIdentifier: "1")
        cache.add(T.image(bytes: 8), withIdentifier: "2")
        #expect(cache.removeAllImages())
        #expect(cache.count == 0 && cache.memoryUsage == 0)
        #expect(cache.removeImages(forSource: "s") == 0)
        try cache.validateInvariants()
    }
}
