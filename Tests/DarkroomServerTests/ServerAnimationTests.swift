import Darkroom
import DarkroomConfig
import DarkroomCore
import DarkroomServer
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Animated sources behind the server

@Suite("darkroom-server keeps GIF animations in animated formats, says when it flattens one, and bounds the frame count")
struct ServerAnimationTests {
    /// A folder with the 24-frame sample GIF, and a config of one animated and one still variant.
    static func folders() throws -> (root: TemporaryDirectory, config: TemporaryDirectory) {
        let root = try TemporaryDirectory(prefix: "darkroom-animation-root")
        try FileManager.default.copyItem(atPath: Fixtures.path("../../Samples/tiny.gif"), toPath: root.path("tiny.gif"))
        let config = try TemporaryDirectory(prefix: "darkroom-animation-config")
        try """
            [variants.moving]
            filters = [ { filter = "aspect-fit", width = 10, height = 10 } ]
            format = "webp"
            lossless = true

            [variants.still]
            filters = [ { filter = "aspect-fit", width = 10, height = 10 } ]
            format = "png"
            """.write(toFile: config.path("10-variants.toml"), atomically: true, encoding: .utf8)
        return (root, config)
    }

    @Test("an animated variant has every frame (in process and in a decoder worker); a still one has X-Darkroom-Animation", arguments: ["none", "all"])
    func keptAndFlattened(isolated: String) async throws {
        let (root, config) = try Self.folders()
        let server = try await ServerProcess.start(
            ["--config", config.url.path, "--root", root.url.path, "--no-cache", "--isolate-decoders", isolated])
        let moving = try await RawHTTPClient.send("GET", "/moving/tiny.gif", port: server.port)
        #expect(moving.status == 200, "\(moving.text)")
        #expect(moving.header("X-Darkroom-Animation") == nil)
        let decoded = try Registry.standard.decode(moving.body)
        #expect(decoded.animation?.frameCount == 24)
        #expect(decoded.size == PixelSize(width: 6, height: 10))

        let still = try await RawHTTPClient.send("GET", "/still/tiny.gif", port: server.port)
        #expect(still.status == 200, "\(still.text)")
        #expect(still.header("Content-Type") == "image/png")
        #expect(still.header("X-Darkroom-Animation") == "first-frame; 24 frames; PNG cannot animate, so the first frame was written")
        #expect(try await server.stop() == 0)
    }

    @Test("--max-frames (and DARKROOM_MAX_FRAMES) refuse a longer animation with 422 naming the limit")
    func maxFrames() async throws {
        let (root, config) = try Self.folders()
        let server = try await ServerProcess.start(
            ["--config", config.url.path, "--root", root.url.path, "--no-cache"], environment: ["DARKROOM_MAX_FRAMES": "10"])
        let refused = try await RawHTTPClient.send("GET", "/moving/tiny.gif", port: server.port)
        #expect(refused.status == 422)
        #expect(refused.text.contains("GIF animation has 24 frames, more than the limit of 10 (max-frames)"), "\(refused.text)")
        #expect(try await server.stop() == 0)
        let bad = try await ServerProcessOutcome.run(["--root", root.url.path, "--max-frames", "0"], environment: [:])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--max-frames 0 is out of range"), "\(bad.stderr)")
    }
}

// MARK: - From a loopback origin

@Suite("an animated GIF from a loopback HTTP origin renders animated in the server, and its replacement is rendered new")
struct OriginAnimationTests {
    @Test("a WebP variant of the origin's 24-frame GIF has 24 frames; a still replacement at the same URL, once stale, renders still")
    func fromOrigin() async throws {
        let folder = try TemporaryDirectory(prefix: "darkroom-animation-origin")
        let origin = try await LoopbackHTTPServer.launch(root: folder.url)
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("../../Samples/tiny.gif")))
            .write(to: URL(fileURLWithPath: folder.path("a.gif")), options: .atomic)
        let text = """
            [variants.moving]
            filters = [ { filter = "aspect-fit", width = 10, height = 10 } ]
            format = "webp"

            [sources.http]
            allow-private-networks = true
            allowed-ports = []
            """
        let configuration = ConfigLoader.load(sources: [(name: "server.toml", text: text)], filters: Registry.standard.filters)
        let settings = ImageServerSettings(root: nil, allowsRemoteSources: true)
        let server = try ImageServer(registry: .standard, configuration: configuration, caches: .none, settings: settings) {
            $0.caches = .memory()
        }
        let path = "/moving/" + origin.url("/image/a.gif?max-age=1").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let first = await server.get(path)
        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
        #expect(try Registry.standard.decode(first.body).animation?.frameCount == 24)

        // The origin's image becomes a still one; after its max-age the render follows it.
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("gradient-rgba.png")))
            .write(to: URL(fileURLWithPath: folder.path("a.gif")), options: .atomic)
        try await Task.sleep(for: .milliseconds(1_100))
        let second = await server.get(path)
        #expect(second.status == 200)
        #expect(try Registry.standard.decode(second.body).animation == nil)
    }
}

// MARK: - From the caches

@Suite("an animation rendered as its first frame says so again when the answer comes from the memory or the disk layer")
struct CachedFlatteningTests {
    @Test("X-Darkroom-Animation on a memory hit, and on a disk hit after a restart")
    func fromCaches() async throws {
        let (root, config) = try ServerAnimationTests.folders()
        let cache = try TemporaryDirectory(prefix: "darkroom-animation-cache")
        try "[caches.disk]\npath = \"\(cache.url.path)\"\n".write(toFile: config.path("20-caches.toml"), atomically: true, encoding: .utf8)
        let arguments = ["--config", config.url.path, "--root", root.url.path]
        let server = try await ServerProcess.start(arguments)
        let rendered = try await RawHTTPClient.send("GET", "/still/tiny.gif", port: server.port)
        #expect(rendered.header("X-Darkroom-Cache") == "rendered")
        let fromMemory = try await RawHTTPClient.send("GET", "/still/tiny.gif", port: server.port)
        #expect(fromMemory.header("X-Darkroom-Cache") == "memory")
        #expect(fromMemory.header("X-Darkroom-Animation") == rendered.header("X-Darkroom-Animation"))
        #expect(fromMemory.header("X-Darkroom-Animation")?.hasPrefix("first-frame; 24 frames") == true)
        let moving = try await RawHTTPClient.send("GET", "/moving/tiny.gif", port: server.port)
        let movingAgain = try await RawHTTPClient.send("GET", "/moving/tiny.gif", port: server.port)
        #expect(moving.header("X-Darkroom-Animation") == nil && movingAgain.header("X-Darkroom-Animation") == nil)
        #expect(try await server.stop() == 0)

        let restarted = try await ServerProcess.start(arguments)
        let fromDisk = try await RawHTTPClient.send("GET", "/still/tiny.gif", port: restarted.port)
        #expect(fromDisk.header("X-Darkroom-Cache") == "disk")
        #expect(fromDisk.header("X-Darkroom-Animation")?.hasPrefix("first-frame; 24 frames") == true)
        #expect(try await restarted.stop() == 0)
    }
}
