import DarkroomTestSupport
import Foundation
import Testing

// MARK: - darkroom cache, and render/batch through the caches

@Suite("render and batch use the configured caches; darkroom cache reports and purges")
struct CacheCommandTests {
    @Test("a second batch is served from the disk cache; stats count it; purge by source removes one source")
    func batchTwice() async throws {
        let cache = try TemporaryDirectory()
        let environment = ["DARKROOM_CACHE_DIR": cache.url.path]
        let out = try TemporaryDirectory()
        let inputs = [Fixtures.path("gradient.jpg"), Fixtures.path("blocks.gif")]
        let arguments = ["batch"] + inputs + ["--variant", "thumbnail", "--variant", "avatar", "--config", RenderCommandTests.config, "--out", out.url.path]
        let first = try await CommandRunner.run(arguments, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stdout.contains("from cache"))
        let second = try await CommandRunner.run(arguments, environment: environment)
        #expect(second.stdout.contains("ok, 2 files (2 from cache)"), "\(second.stdout)")

        let stats = try await CommandRunner.run(["cache", "stats", "--json", "--config", RenderCommandTests.config], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let disk = try #require(object["disk"] as? [String: Any])
        #expect(disk["entries"] as? Int == 4)
        #expect(disk["hits"] as? Int == 4)

        let purge = try await CommandRunner.run(
            ["cache", "purge", "--source", Fixtures.path("blocks.gif"), "--config", RenderCommandTests.config], environment: environment)
        #expect(purge.stdout.contains("purged 2 entries"), "\(purge.stdout)")
        let after = try await CommandRunner.run(["cache", "stats", "--json", "--config", RenderCommandTests.config], environment: environment)
        #expect(after.stdout.contains("\"entries\" : 2"))
    }

    @Test("--no-cache neither reads nor writes the cache")
    func noCache() async throws {
        let cache = try TemporaryDirectory()
        let out = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(
            ["render", Fixtures.path("gradient.jpg"), "--variant", "thumbnail", "--config", RenderCommandTests.config, "-o", out.path("t.jpg"), "--no-cache"],
            environment: ["DARKROOM_CACHE_DIR": cache.url.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entries = FileManager.default.enumerator(atPath: cache.url.path)?.allObjects.compactMap { $0 as? String }.filter { $0.hasSuffix(".entry") } ?? []
        #expect(entries.isEmpty)
    }

    @Test("a config whose [caches.memory] has an error still renders --filter chains, without a crash")
    func brokenMemoryCacheSettings() async throws {
        let cache = try TemporaryDirectory()
        let folder = try TemporaryDirectory()
        try Data("[caches.memory]\ncapacity = \"10MB\"\nafter-purge = \"20MB\"\n".utf8).write(to: folder.url.appendingPathComponent("50-caches.toml"))
        let outcome = try await CommandRunner.run(
            ["render", Fixtures.path("gradient.jpg"), "--filter", "grayscale", "--config", folder.url.path, "-o", folder.path("g.png")],
            environment: ["DARKROOM_CACHE_DIR": cache.url.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }
}
