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

    @Test("a wrong [caches.*] setting stops render, batch and cache with one file:line error, never a crash")
    func wrongCacheSettings() async throws {
        let cases = [
            ("[caches.memory]\ncapacity = -1\n", ":2: [caches.memory] capacity must be a size"),
            ("[caches.memory]\ncapacity = \"10MB\"\nafter-purge = \"20MB\"\n", ":3: [caches.memory] after-purge"),
            ("[caches.disk]\nlimit = \"100XB\"\n", ":2: [caches.disk] limit must be a size"),
            ("[caches.disk]\nmax-age = 0\n", ":2: [caches.disk] max-age must be longer than 0"),
        ]
        for (settings, message) in cases {
            let folder = try TemporaryDirectory()
            let config = folder.path("filters.d")
            try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
            try Data("[variants.small]\nfilters = [\"grayscale\"]\nformat = \"png\"\n".utf8).write(to: URL(fileURLWithPath: config + "/10-base.toml"))
            try Data(settings.utf8).write(to: URL(fileURLWithPath: config + "/50-caches.toml"))
            let environment = ["DARKROOM_CACHE_DIR": folder.path("cache")]
            let commands = [
                ["render", Fixtures.path("gradient.jpg"), "--variant", "small", "--config", config, "-o", folder.path("out.png")],
                ["batch", Fixtures.path("gradient.jpg"), "--variant", "small", "--config", config, "--out", folder.path("out")],
                ["cache", "stats", "--config", config],
            ]
            for arguments in commands {
                let outcome = try await CommandRunner.run(arguments, environment: environment)
                #expect(outcome.status == 78, "\(arguments): \(outcome.stderr)")
                #expect(outcome.stderr.hasPrefix("darkroom: error: \(config)/50-caches.toml\(message)"), "\(outcome.stderr)")
                #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.path("out.png")))
        }
    }

    @Test("a cache folder holding other files is refused by render, batch and cache, and its files are kept")
    func foreignCacheFolder() async throws {
        let folder = try TemporaryDirectory()
        let cache = folder.path("home")
        try FileManager.default.createDirectory(atPath: cache + "/tmp", withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: cache + "/tmp/notes.txt"))
        let environment = ["DARKROOM_CACHE_DIR": cache]
        let config = ["--config", RenderCommandTests.config]
        let commands = [
            ["render", Fixtures.path("gradient.jpg"), "--variant", "thumbnail", "-o", folder.path("t.jpg")] + config,
            ["batch", Fixtures.path("gradient.jpg"), "--variant", "thumbnail", "--out", folder.path("out")] + config,
            ["cache", "sweep"] + config,
            ["cache", "purge", "--all"] + config,
        ]
        for arguments in commands {
            let outcome = try await CommandRunner.run(arguments, environment: environment)
            #expect(outcome.status == 78, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("darkroom: error: "), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("\(cache): holds 'tmp/notes.txt'"), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        }
        #expect(try String(contentsOfFile: cache + "/tmp/notes.txt", encoding: .utf8) == "keep me")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache) == ["tmp"])
        #expect(!FileManager.default.fileExists(atPath: folder.path("t.jpg")))
    }

    @Test("cache purge --source with an empty value is a usage error, not a purge of the working folder")
    func purgeEmptySource() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(
            ["cache", "purge", "--source", "", "--config", RenderCommandTests.config], environment: ["DARKROOM_CACHE_DIR": folder.path("c")])
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "darkroom: error: cache: --source must name a file or a URL (it is empty) (see 'darkroom help cache')\n", "\(outcome.stderr)")
    }

    @Test("cache purge --source finds a deleted file's renders through a symlinked folder")
    func purgeDeletedThroughSymlink() async throws {
        let folder = try TemporaryDirectory()
        let environment = ["DARKROOM_CACHE_DIR": folder.path("cache")]
        try FileManager.default.createDirectory(atPath: folder.path("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: folder.path("real"))
        try FileManager.default.copyItem(atPath: Fixtures.path("gradient.jpg"), toPath: folder.path("real/photo.jpg"))
        let source = folder.path("link/photo.jpg")
        let render = try await CommandRunner.run(
            ["render", source, "--variant", "thumbnail", "--config", RenderCommandTests.config, "-o", folder.path("t.jpg")],
            environment: environment)
        #expect(render.status == 0, "\(render.stderr)")
        try FileManager.default.removeItem(atPath: folder.path("real/photo.jpg"))
        let purge = try await CommandRunner.run(
            ["cache", "purge", "--source", source, "--config", RenderCommandTests.config], environment: environment)
        #expect(purge.stdout.contains("purged 1 entries"), "\(purge.stdout) \(purge.stderr)")
    }
}

// MARK: - Purging everything

@Suite("cache purge without --source needs --all (or a yes on a terminal) before it empties the cache")
struct CachePurgeAllTests {
    /// Renders one input into a fresh cache folder; returns the environment that names it.
    static func filledCache() async throws -> (cache: TemporaryDirectory, environment: [String: String]) {
        let cache = try TemporaryDirectory()
        let out = try TemporaryDirectory()
        let environment = ["DARKROOM_CACHE_DIR": cache.url.path]
        let batch = try await CommandRunner.run(
            ["batch", Fixtures.path("gradient.jpg"), "--variant", "thumbnail", "--config", RenderCommandTests.config, "--out", out.url.path],
            environment: environment)
        #expect(batch.status == 0, "\(batch.stderr)")
        return (cache, environment)
    }

    static func entries(_ environment: [String: String]) async throws -> Int? {
        let stats = try await CommandRunner.run(["cache", "stats", "--json", "--config", RenderCommandTests.config], environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        return (object?["disk"] as? [String: Any])?["entries"] as? Int
    }

    @Test("off a terminal, a bare purge is refused naming --all, and every entry stays")
    func barePurgeRefused() async throws {
        let (cache, environment) = try await Self.filledCache()
        let purge = try await CommandRunner.run(["cache", "purge", "--config", RenderCommandTests.config], environment: environment)
        #expect(purge.status == 64, "\(purge.stderr)")
        #expect(purge.stderr.hasPrefix("darkroom: error: cache purge: "), "\(purge.stderr)")
        #expect(purge.stderr.contains("--all"), "\(purge.stderr)")
        #expect(try await Self.entries(environment) == 1)
        _ = cache
    }

    @Test("--all empties every layer")
    func purgeAll() async throws {
        let (cache, environment) = try await Self.filledCache()
        let purge = try await CommandRunner.run(["cache", "purge", "--all", "--config", RenderCommandTests.config], environment: environment)
        #expect(purge.status == 0, "\(purge.stderr)")
        #expect(purge.stdout.contains("purged 1 entries"), "\(purge.stdout)")
        #expect(try await Self.entries(environment) == 0)
        _ = cache
    }

    @Test("--all with --source is a usage error")
    func allWithSource() async throws {
        let purge = try await CommandRunner.run(
            ["cache", "purge", "--all", "--source", Fixtures.path("gradient.jpg"), "--config", RenderCommandTests.config])
        #expect(purge.status == 64)
        #expect(purge.stderr.contains("--source and --all are exclusive"), "\(purge.stderr)")
    }
}
