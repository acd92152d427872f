import Darkroom
import DarkroomCore
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
