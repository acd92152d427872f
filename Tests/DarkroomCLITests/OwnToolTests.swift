import Darkroom
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - A package's own tool

/// `Tests/CustomFilterTool` is the darkroom tool as a package builds its own with
/// `DarkroomTool.main`: DarkroomCLI plus a filter the darkroom tool does not know (`posterize`).
@Suite("a tool built on DarkroomCLI knows the filters its package registers")
struct OwnToolTests {
    static let tool = CommandRunner.builtExecutable(named: "CustomFilterTool")

    /// A filters.d folder with one variant that posterizes to black and white channels.
    static func posterConfig(in folder: TemporaryDirectory) throws -> String {
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try Data("""
            [variants.poster]
            filters = [
              { filter = "aspect-fit", width = 32, height = 32 },
              { filter = "posterize", levels = 2 },
            ]
            format = "png"
            """.utf8).write(to: URL(fileURLWithPath: config + "/10-poster.toml"))
        return config
    }

    @Test("check accepts a filters.d naming the package's filter; the darkroom tool reports it unknown at its line")
    func checkKnowsOwnFilter() async throws {
        let folder = try TemporaryDirectory()
        let config = try Self.posterConfig(in: folder)
        let own = try await CommandRunner.run(["check", "--config", config], executable: Self.tool)
        #expect(own.status == 0, "\(own.stderr)")
        let plain = try await CommandRunner.run(["check", "--config", config])
        #expect(plain.status == 78)
        #expect(plain.stdout.contains("10-poster.toml:4: unknown filter 'posterize'"), "\(plain.stdout)")
    }

    @Test("list shows the package's filter with its arguments and origin, beside the standard ones")
    func listShowsOwnFilter() async throws {
        let outcome = try await CommandRunner.run(["list", "--config", RenderCommandTests.config], executable: Self.tool)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let line = outcome.stdout.split(separator: "\n").first { $0.hasPrefix("  posterize ") }
        #expect(line?.contains("[CustomFilterTool, idempotent]") == true, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("levels: an integer 2…255"))
        #expect(outcome.stdout.contains("  aspect-fit "))
        // Only the darkroom executable registers the example module.
        #expect(!outcome.stdout.contains("  vignette "))
    }

    @Test("render applies the package's filter: every channel is 0 or 255 after posterize(levels=2)")
    func renderAppliesOwnFilter() async throws {
        let folder = try TemporaryDirectory()
        let config = try Self.posterConfig(in: folder)
        let out = folder.path("poster.png")
        let outcome = try await CommandRunner.run(
            ["render", Fixtures.path("gradient.jpg"), "--variant", "poster", "--config", config, "-o", out],
            executable: Self.tool)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let image = try Registry.standard.decode(FileBytes.read(out))
        #expect(max(image.width, image.height) == 32)
        #expect(image.pixels.allSatisfy { $0 == 0 || $0 == 255 })
        // A gradient keeps both ends: the filter did not just blacken or whiten it.
        #expect(image.pixels.contains(0) && image.pixels.enumerated().contains { $0 % 4 != 3 && $1 == 255 })
    }

    @Test("a wrong argument of the package's filter is refused at its line, with the declared range")
    func wrongArgumentOfOwnFilter() async throws {
        let folder = try TemporaryDirectory()
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try Data("[variants.poster]\nfilters = [ { filter = \"posterize\", levels = 1 } ]\n".utf8)
            .write(to: URL(fileURLWithPath: config + "/10-poster.toml"))
        let outcome = try await CommandRunner.run(["check", "--config", config], executable: Self.tool)
        #expect(outcome.status == 78)
        #expect(
            outcome.stdout.contains("10-poster.toml:2: invalid posterize argument 'levels' '1': expected an integer 2…255"),
            "\(outcome.stdout)")
    }
}
