import DarkroomTestSupport
import Foundation
import Testing

// MARK: - filters.d over the built-in defaults, through the tool

@Suite("A --config folder is read over the built-in defaults unless it opts out")
struct DefaultLayeringCommandTests {
    static func folder(_ files: [String: String]) throws -> (TemporaryDirectory, String) {
        let folder = try TemporaryDirectory()
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: config + "/" + name))
        }
        return (folder, config)
    }

    @Test("a folder holding only [sources.http] renders the built-in thumbnail; check and list say where it came from")
    func onlySources() async throws {
        let (folder, config) = try Self.folder(["10-http.toml": "[sources.http]\ntimeout = \"5s\"\n"])
        let check = try await CommandRunner.run(["check", "--config", config])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr.contains("1 files over the built-in defaults, no errors"), "\(check.stderr)")
        let render = try await CommandRunner.run(
            ["render", Fixtures.path("gradient.jpg"), "--variant", "thumbnail", "--config", config, "-o", folder.path("t.jpg")])
        #expect(render.status == 0, "\(render.stderr)")
        let list = try await CommandRunner.run(["list", "--config", config])
        #expect(list.stdout.contains("defined at: (built-in)/10-basics.toml:"), "\(list.stdout)")
    }

    @Test("a folder's variant replaces the built-in one of that name, and list shows the one it overrides")
    func override() async throws {
        let (folder, config) = try Self.folder(["20-thumb.toml": "[variants.thumbnail]\nfilters = [ \"grayscale\" ]\nformat = \"png\"\n"])
        let list = try await CommandRunner.run(["list", "--json", "--config", config])
        #expect(list.status == 0, "\(list.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
        let variants = try #require(object["variants"] as? [[String: Any]])
        let thumbnail = try #require(variants.first { $0["name"] as? String == "thumbnail" })
        #expect((thumbnail["identifier"] as? String)?.hasPrefix("grayscale") == true, "\(thumbnail)")
        #expect(variants.count > 5, "the other built-in variants are still there")
        withExtendedLifetime(folder) {}
    }

    @Test("[defaults] include = false reads the folder alone; with no variants check warns but passes")
    func optOut() async throws {
        let (folder, config) = try Self.folder(["00-defaults.toml": "[defaults]\ninclude = false\n"])
        let check = try await CommandRunner.run(["check", "--config", config])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("warning: the configuration defines no variants"), "\(check.stdout)")
        #expect(check.stderr.contains("0 variants, 1 files, no errors"), "\(check.stderr)")
        let render = try await CommandRunner.run(
            ["render", Fixtures.path("gradient.jpg"), "--variant", "thumbnail", "--config", config, "-o", folder.path("t.jpg")])
        #expect(render.status == 64)
        #expect(render.stderr.contains("invalid variant 'thumbnail'"), "\(render.stderr)")
    }
}
