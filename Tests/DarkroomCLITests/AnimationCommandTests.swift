import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Animations through the binary

@Suite("darkroom convert, render and batch keep animations in GIF and WebP, and warn when a format cannot animate")
struct AnimationCommandTests {
    @Test("convert: GIF to WebP stays animated (24 frames, the delays kept); to PNG it warns and writes the first frame")
    func convert() async throws {
        let folder = try TemporaryDirectory()
        let gif = Fixtures.path("../../Samples/tiny.gif")
        let webp = try await CommandRunner.run(["convert", gif, "-o", folder.path("tiny.webp"), "--lossless"])
        #expect(webp.status == 0, "\(webp.stderr)")
        #expect(!webp.stderr.contains("warning"), "\(webp.stderr)")
        let source = try Registry.standard.decode(Fixtures.bytes("../../Samples/tiny.gif"))
        let written = try Registry.standard.decode(Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("tiny.webp")))))
        #expect(written.animation?.frameCount == 24)
        #expect(written.animation?.timings.map(\.delay) == source.animation?.timings.map(\.delay))

        let png = try await CommandRunner.run(["convert", gif, "-o", folder.path("tiny.png")])
        #expect(png.status == 0, "\(png.stderr)")
        #expect(png.stderr.contains("darkroom: warning: \(gif): 24 frames; PNG cannot animate, so the first frame was written"), "\(png.stderr)")
    }

    @Test("render and batch name the variants written as a first frame; [limits] max-frames refuses longer animations")
    func renderAndBatch() async throws {
        let folder = try TemporaryDirectory()
        let gif = folder.path("tiny.gif")
        try FileManager.default.copyItem(atPath: Fixtures.path("../../Samples/tiny.gif"), toPath: gif)
        let render = try await CommandRunner.run(["render", gif, "--variant", "thumbnail", "-o", folder.path("t.jpg"), "--no-cache"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("darkroom: warning: thumbnail: 24 frames; JPEG cannot animate"), "\(render.stderr)")

        let batch = try await CommandRunner.run(
            ["batch", gif, "--variant", "thumbnail", "--variant", "preview", "--out", folder.path("out"), "--no-cache"])
        #expect(batch.status == 0, "\(batch.stdout)\(batch.stderr)")
        #expect(batch.stderr.contains("(thumbnail): 24 frames; JPEG cannot animate"), "\(batch.stderr)")
        #expect(!batch.stderr.contains("(preview)"), "\(batch.stderr)")
        let preview = try Registry.standard.decode(Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("out/preview/tiny.webp")))))
        #expect(preview.animation?.frameCount == 24)

        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "[limits]\nmax-frames = 12\n".write(toFile: config + "/10-limits.toml", atomically: true, encoding: .utf8)
        let limited = try await CommandRunner.run(
            ["render", gif, "--variant", "thumbnail", "--config", config, "-o", folder.path("u.jpg"), "--no-cache"])
        #expect(limited.status != 0)
        #expect(limited.stderr.contains("GIF animation has 24 frames, more than the limit of 12 (max-frames)"), "\(limited.stderr)")
    }
}
