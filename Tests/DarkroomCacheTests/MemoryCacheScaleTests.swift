@testable import DarkroomCache
import DarkroomCore
import Testing

// MARK: - Scale

@Suite("The memory cache keeps evicting correctly through 100,000 entries")
struct MemoryCacheScaleTests {
    typealias T = MemoryTestImages

    @Test("100,000 one-pixel images: the newest stay, hot images survive, a source purge is exact")
    func hundredThousandEntries() throws {
        let capacity = 200_000, target = 150_000  // 50,000 and 37,500 one-pixel images
        let cache = AutoPurgingImageCache(memoryCapacity: capacity, preferredMemoryUsageAfterPurge: target)
        let hot = 100, cold = 100_000
        func image(_ n: Int) -> Image { T.image(width: 1, key: n & 0xFFFF, version: n >> 16) }
        func number(_ image: Image) -> Int? { T.tag(of: image).map { $0.key | $0.version << 16 } }

        for h in 0..<hot { cache.add(image(h), withIdentifier: "h\(h)") }
        for n in 0..<cold {
            cache.add(image(n), withIdentifier: "c\(n)", source: "s\(n % 1000)")
            if n % 1000 == 999 {
                for h in 0..<hot where cache.image(withIdentifier: "h\(h)") == nil { Issue.record("hot h\(h) evicted at \(n)") }
            }
        }

        // Every image costs 4: the count after each insert follows from the policy alone.
        var expected = 0
        for _ in 0..<(hot + cold) {
            expected += 1
            if expected * 4 > capacity { while expected * 4 > target, expected > 1 { expected -= 1 } }
        }
        #expect(cache.count == expected)
        #expect(cache.memoryUsage == expected * 4)
        #expect(cache.statistics.evictions == hot + cold - expected)
        #expect(cache.statistics.evictions > 50_000)

        // Present: the hot images and exactly the newest cold ones, each holding its own pixels.
        let firstKept = cold - (expected - hot)
        #expect(cache.image(withIdentifier: "c\(firstKept - 1)") == nil)
        let stored = cache.state.withLock { state in
            state.store.keysByRecency.map { ($0, state.store.peekValue(forKey: $0)!) }
        }
        var coldSeen = 0
        for (identifier, image) in stored {
            let n = try #require(number(image))
            if identifier.hasPrefix("h") {
                #expect(identifier == "h\(n)" && n < hot)
            } else {
                #expect(identifier == "c\(n)" && n >= firstKept)
                coldSeen += 1
            }
        }
        #expect(coldSeen == expected - hot)

        // A source purge removes exactly that source's surviving images.
        let survivorsOfS7 = (firstKept..<cold).filter { $0 % 1000 == 7 }.count
        #expect(cache.removeImages(forSource: "s7") == survivorsOfS7)
        #expect(cache.count == expected - survivorsOfS7)
        try cache.validateInvariants()
    }
}
