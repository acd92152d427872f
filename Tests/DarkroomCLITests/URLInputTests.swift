import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - URL inputs

/// `darkroom render` and `batch` with http(s) URLs, against the real loopback test server.
@Suite("darkroom render and batch fetch http URLs once and report failed URLs")
struct URLInputTests {
    let server: LoopbackHTTPServer
    let folder: TemporaryDirectory
    /// The shipped filters.d plus `[sources.http] allow-private-networks = true` (the server is
    /// on 127.0.0.1, which the default settings refuse).
    let config: String

    init() async throws {
        server = try await LoopbackHTTPServer.launch()
        folder = try TemporaryDirectory(prefix: "darkroom-cli-url")
        let configFolder = folder.url.appendingPathComponent("filters.d")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        let shipped = URL(fileURLWithPath: RenderCommandTests.config)
        for name in try FileManager.default.contentsOfDirectory(atPath: shipped.path) where name.hasSuffix(".toml") {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(name), to: configFolder.appendingPathComponent(name))
        }
        try Data("[sources.http]\nallow-private-networks = true\nallowed-ports = []\n".utf8)
            .write(to: configFolder.appendingPathComponent("95-test-http.toml"))
        config = configFolder.path
    }

    /// Runs darkroom with this suite's own disk cache folder.
    func run(_ arguments: [String]) async throws -> CommandRunner.Outcome {
        try await CommandRunner.run(arguments, environment: ["DARKROOM_CACHE_DIR": folder.path("cache")])
    }

    @Test("render takes a URL where it takes a path; a second render comes from the cache without a request")
    func renderURL() async throws {
        let path = "/image/gradient.jpg?test=render"
        let out = folder.path("thumb.jpg")
        let first = try await run(["render", server.url(path), "--variant", "thumbnail", "--config", config, "-o", out])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try ImageProbe.probe(FileBytes.read(out)).size == PixelSize(width: 64, height: 48))
        let second = try await run(["render", server.url(path), "--variant", "thumbnail", "--config", config, "-o", out])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("from the"), "\(second.stdout)")
        #expect(server.hits(path) == 1)
    }

    @Test("render takes a file and a URL of the same image the same way: the same variants, byte for byte")
    func fileAndURLOnePath() async throws {
        let path = "/image/gradient.jpg?test=same-path"
        let fromFile = try await run([
            "render", Fixtures.path("gradient.jpg"), "--variant", "thumbnail", "--variant", "avatar", "--config", config,
            "-o", folder.path("from-file") + "/", "--no-cache",
        ])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        let fromURL = try await run([
            "render", server.url(path), "--variant", "thumbnail", "--variant", "avatar", "--config", config,
            "-o", folder.path("from-url") + "/", "--no-cache",
        ])
        #expect(fromURL.status == 0, "\(fromURL.stderr)")
        for name in ["thumbnail.jpg", "avatar.png"] {
            let file = try FileBytes.read(folder.path("from-file/\(name)"))
            let url = try FileBytes.read(folder.path("from-url/\(name)"))
            #expect(!file.isEmpty && file == url, "\(name)")
        }
    }

    @Test("proxy variables in the environment are not used: every fetch goes straight to the server")
    func environmentProxiesIgnored() async throws {
        let path = "/image/gradient.jpg?test=proxy"
        // Nothing listens on port 9 of this machine: a fetch through that proxy would fail.
        let proxy = "http://127.0.0.1:9"
        let outcome = try await CommandRunner.run(
            ["render", server.url(path), "--variant", "thumbnail", "--config", config, "-o", folder.path("proxied.jpg")],
            environment: [
                "DARKROOM_CACHE_DIR": folder.path("cache-proxy"), "http_proxy": proxy, "HTTPS_PROXY": proxy,
                "ALL_PROXY": proxy, "all_proxy": proxy,
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(server.hits(path) == 1)
    }

    @Test("batch downloads a URL given many times (arguments, spellings, --url-list) once")
    func batchDeduplicates() async throws {
        let path = "/image/gradient.jpg?test=batch"
        let list = folder.path("urls.txt")
        try Data("# thumbnails\n\(server.url(path))\n\n\(server.url("/image/gradient-rgba.png?test=batch"))\n".utf8)
            .write(to: URL(fileURLWithPath: list))
        let spelledAgain = server.url(path).replacingOccurrences(of: "http://", with: "HTTP://")
        let outcome = try await run([
            "batch", server.url(path), spelledAgain, server.url(path), "--url-list", list,
            "--variant", "thumbnail", "--variant", "avatar", "--config", config, "--out", folder.path("out"), "--no-cache",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("2 done, 0 failed, 4 files written"), "\(outcome.stdout)")
        #expect(server.hits(path) == 1)
        #expect(server.hits("/image/gradient-rgba.png?test=batch") == 1)
        #expect(try ImageProbe.probe(FileBytes.read(folder.path("out/thumbnail/gradient.jpg"))).size == PixelSize(width: 64, height: 48))
        #expect(try ImageProbe.probe(FileBytes.read(folder.path("out/avatar/gradient-rgba.png"))).format == .png)
    }

    @Test("a failed URL prints 'darkroom: error: URL: reason' with the HTTP status, exits 69 (EX_UNAVAILABLE), and the rest still render")
    func failedURL() async throws {
        let missing = server.url("/status/404?test=batch-failure")
        let broken = server.url("/html-as-jpeg?test=batch-failure")
        let outcome = try await run([
            "batch", missing, broken, Fixtures.path("gradient.jpg"), "--variant", "thumbnail",
            "--config", config, "--out", folder.path("out"), "--no-cache",
        ])
        #expect(outcome.status == 69)
        #expect(outcome.stderrLines.contains("darkroom: error: \(missing): HTTP 404 Not Found"), "\(outcome.stderr)")
        #expect(outcome.stderrLines.contains { $0.hasPrefix("darkroom: error: \(broken): ") && $0.contains("HTML") }, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("out/thumbnail/gradient.jpg")))

        let render = try await run(["render", missing, "--variant", "thumbnail", "--config", config, "-o", folder.path("x.jpg")])
        #expect(render.status == 69)
        #expect(render.stderrLines == ["darkroom: error: \(missing): HTTP 404 Not Found"])
    }

    @Test("credentials in a refused redirect target and in batch progress lines are hidden")
    func credentialsHiddenInRedirectsAndProgress() async throws {
        let redirect = server.url("/redirect?to=ftp://bob:hunter2@127.0.0.1/a.jpg&test=redirect-credentials")
        let render = try await run(["render", redirect, "--variant", "thumbnail", "--config", config, "-o", folder.path("r.jpg")])
        #expect(render.status == 69)
        #expect(render.stderr.contains("redirect to ftp://***@127.0.0.1/a.jpg refused"), "\(render.stderr)")
        #expect(!render.stderr.contains("hunter2"), "\(render.stderr)")

        let image = server.url("/image/gradient.jpg?test=progress-credentials").replacingOccurrences(of: "http://", with: "http://bob:hunter2@")
        let batch = try await run(["batch", image, "--variant", "thumbnail", "--config", config, "--out", folder.path("progress"), "--no-cache"])
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stdout.contains("http://***@127.0.0.1"), "\(batch.stdout)")
        #expect(!batch.stdout.contains("hunter2") && !batch.stderr.contains("hunter2"), "\(batch.stdout)")
    }

    @Test("without allow-private-networks a loopback URL is refused with a message saying how to allow it")
    func privateNetworksRefused() async throws {
        let url = server.url("/image/gradient.jpg?test=private")
        // The shipped variants, any port (the loopback server's), and private networks refused.
        let refusing = folder.url.appendingPathComponent("refusing.d")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: config), to: refusing)
        try Data("[sources.http]\nallowed-ports = []\n".utf8).write(to: refusing.appendingPathComponent("95-test-http.toml"))
        let outcome = try await run(
            ["render", url, "--variant", "thumbnail", "-o", folder.path("p.jpg"), "--no-cache", "--config", refusing.path])
        #expect(outcome.status == 69)
        #expect(outcome.stderr.contains("\(url): 127.0.0.1 is a loopback address"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("allow-private-networks"))
        #expect(server.hits("/image/gradient.jpg?test=private") == 0)
    }

    @Test("URLs of other schemes are refused by name")
    func otherSchemes() async throws {
        let outcome = try await run(["batch", "ftp://127.0.0.1/a.jpg", "--variant", "thumbnail", "--out", folder.path("o")])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("ftp:// is not supported"), "\(outcome.stderr)")
    }

    @Test("outputs of URLs ending alike get -2, -3 so none overwrites another")
    func sameNames() async throws {
        let outcome = try await run([
            "batch", server.url("/image/gradient.jpg?test=names-1"), server.url("/image/gradient.jpg?test=names-2"),
            "--variant", "thumbnail", "--config", config, "--out", folder.path("names"), "--no-cache",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("names/thumbnail/gradient.jpg")))
        #expect(FileManager.default.fileExists(atPath: folder.path("names/thumbnail/gradient-2.jpg")))
    }

    @Test("cache purge --source takes a URL spelled as it was rendered (case, default port, fragment)")
    func purgeURLSpelling() async throws {
        let spelled = server.url("/image/gradient.jpg?test=purge").replacingOccurrences(of: "http://", with: "HTTP://") + "#top"
        let cache = ["DARKROOM_CACHE_DIR": folder.path("cache-purge")]
        let render = try await CommandRunner.run(
            ["render", spelled, "--variant", "thumbnail", "--config", config, "-o", folder.path("purge.jpg")], environment: cache)
        #expect(render.status == 0, "\(render.stderr)")
        let purge = try await CommandRunner.run(["cache", "purge", "--source", spelled, "--config", config], environment: cache)
        #expect(purge.status == 0, "\(purge.stderr)")
        #expect(purge.stdout.contains("purged 1 entries"), "\(purge.stdout)")
        let malformed = try await CommandRunner.run(["cache", "purge", "--source", "http://[bad", "--config", config], environment: cache)
        #expect(malformed.status == 64)
        #expect(malformed.stderr.hasPrefix("darkroom: error: http://[bad: not a valid URL"), "\(malformed.stderr)")
    }

    @Test("a malformed URL in --url-list is one failure named alone in one error line; the other inputs still render")
    func malformedURLInList() async throws {
        let list = folder.path("bad-urls.txt")
        try Data("# list\n\n\(server.url("/image/gradient.jpg?test=bad-list"))\nhttp://[bad\n".utf8).write(to: URL(fileURLWithPath: list))
        let outcome = try await run(["batch", "--url-list", list, "--variant", "thumbnail", "--config", config, "--out", folder.path("bad")])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("darkroom: error: http://[bad: not a valid URL"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("test=bad-list"), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("batch: 1 done, 1 failed"), "\(outcome.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.path("bad/thumbnail/gradient.jpg")))
    }

    @Test("credentials written in a URL are not stored in the disk cache, and its purge still finds it")
    func credentialsNotCached() async throws {
        let url = server.url("/image/gradient.jpg?test=credentials").replacingOccurrences(of: "http://", with: "http://alice:s3cret@")
        let cache = ["DARKROOM_CACHE_DIR": folder.path("cache-credentials")]
        let render = try await CommandRunner.run(
            ["render", url, "--variant", "thumbnail", "--config", config, "-o", folder.path("credentials.jpg")], environment: cache)
        #expect(render.status == 0, "\(render.stderr)")
        let files = FileManager.default.enumerator(atPath: folder.path("cache-credentials"))?.allObjects.compactMap { $0 as? String } ?? []
        for file in files {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: folder.path("cache-credentials/\(file)")))) ?? Data()
            #expect(bytes.range(of: Data("s3cret".utf8)) == nil, "\(file) holds the password")
        }
        let purge = try await CommandRunner.run(["cache", "purge", "--source", url, "--config", config], environment: cache)
        #expect(purge.stdout.contains("purged 1 entries"), "\(purge.stdout)")
        #expect(!purge.stdout.contains("s3cret"), "\(purge.stdout)")
    }
}
