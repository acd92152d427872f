import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - [limits] through the binary

@Suite("darkroom render, batch and list follow [limits] in filters.d")
struct LimitsCommandTests {
    @Test("[limits] max-pixels refuses a larger source in render and batch, and list shows every limit with where it was set")
    func maxPixelsAndList() async throws {
        let folder = try TemporaryDirectory()
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "[limits]\nmax-pixels = 1000\nmemory = \"64MB\"\n".write(toFile: config + "/10-limits.toml", atomically: true, encoding: .utf8)
        let photo = folder.path("photo.jpg")
        try Data(try Registry.standard.encode(Pattern.photo(width: 96, height: 64), options: EncodeOptions(format: .jpeg)))
            .write(to: URL(fileURLWithPath: photo))

        let check = try await CommandRunner.run(["check", "--config", config])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let render = try await CommandRunner.run(
            ["render", photo, "--variant", "thumbnail", "--config", config, "-o", folder.path("t.jpg"), "--no-cache"])
        #expect(render.status != 0)
        #expect(render.stderr.contains("96×64 (6144 pixels), more than the limit of 1000 pixels"), "\(render.stderr)")
        let batch = try await CommandRunner.run(
            ["batch", photo, "--variant", "thumbnail", "--config", config, "--out", folder.path("out"), "--no-cache"])
        #expect(batch.status != 0)
        #expect(batch.stdout.contains("0 done, 1 failed"), "\(batch.stdout)")

        let list = try await CommandRunner.run(["list", "--config", config])
        #expect(list.stdout.contains("max-pixels = 1000  (\(config)/10-limits.toml:2)"), "\(list.stdout.suffix(300))")
        #expect(list.stdout.contains("memory = 64MB  (\(config)/10-limits.toml:3)"), "\(list.stdout.suffix(300))")
        #expect(list.stdout.contains("max-input-size = 100MB  (default)"), "\(list.stdout.suffix(300))")
        let listJSON = try await CommandRunner.run(["list", "--json", "--config", config])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(listJSON.stdout.utf8)) as? [String: Any])
        let limits = try #require(listed["limits"] as? [[String: String]])
        #expect(limits.map { $0["key"] } == ["memory", "max-pixels", "max-input-size", "max-frames", "queue-timeout"])
        #expect(limits[1] == ["key": "max-pixels", "value": "1000", "definedAt": "\(config)/10-limits.toml:2"])
    }

    @Test("[limits] max-pixels bounds what the filters make, not only the source: an enlargement past it is refused")
    func maxPixelsBoundsFilterOutputs() async throws {
        let folder = try TemporaryDirectory()
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "[limits]\nmax-pixels = 10000\n".write(toFile: config + "/10-limits.toml", atomically: true, encoding: .utf8)
        let photo = folder.path("photo.jpg")
        try Data(try Registry.standard.encode(Pattern.photo(width: 96, height: 64), options: EncodeOptions(format: .jpeg)))
            .write(to: URL(fileURLWithPath: photo))

        let enlarged = try await CommandRunner.run(
            ["render", photo, "--filter", "aspect-fit(width=960)", "--config", config, "-o", folder.path("big.png"), "--no-cache"])
        #expect(enlarged.status != 0)
        #expect(
            enlarged.stderr.contains("invalid aspect-fit output '960×640 (614400 pixels)': expected at most 10000 pixels (max-pixels)"),
            "\(enlarged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("big.png")))
        // An extend the size decides is refused too; one that stays within the limit renders.
        let framed = try await CommandRunner.run(
            ["render", photo, "--filter", "extend(top=40)", "--config", config, "-o", folder.path("framed.png"), "--no-cache"])
        #expect(framed.status == 0, "\(framed.stderr)")
        let tooFramed = try await CommandRunner.run(
            ["render", photo, "--filter", "extend(top=41)", "--config", config, "-o", folder.path("framed2.png"), "--no-cache"])
        #expect(tooFramed.status != 0)
        #expect(tooFramed.stderr.contains("invalid extend output '96×105 (10080 pixels)'"), "\(tooFramed.stderr)")
    }

    @Test("a wrong [limits] value is an error at its line in check")
    func checkRefuses() async throws {
        let folder = try TemporaryDirectory()
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "[limits]\nqueue-timeout = \"soon\"\n".write(toFile: config + "/10-limits.toml", atomically: true, encoding: .utf8)
        let check = try await CommandRunner.run(["check", "--config", config])
        #expect(check.status != 0)
        #expect((check.stdout + check.stderr).contains("10-limits.toml:2: [limits] queue-timeout must be a duration"), "\(check.stdout)\(check.stderr)")
    }
}
