import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - --fail-on and [decode] fail-on through the binary

@Suite("darkroom decodes damaged files as --fail-on or [decode] fail-on says, and warns about what it let through")
struct FailOnCommandTests {
    /// A 96×64 picture encoded as `format`, cut to 60 % and written to `folder/name`.
    static func cutFile(_ name: String, format: ImageFormat, in folder: TemporaryDirectory) throws -> String {
        let whole = try Registry.standard.encode(Pattern.photo(width: 96, height: 64), options: EncodeOptions(format: format))
        let path = folder.path(name)
        try Data(whole.prefix(whole.count * 6 / 10)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("convert refuses a cut JPEG by default and writes it with a warning at --fail-on none")
    func convert() async throws {
        let folder = try TemporaryDirectory()
        let cut = try Self.cutFile("cut.jpg", format: .jpeg, in: folder)
        let refused = try await CommandRunner.run(["convert", cut, "-o", folder.path("strict.png")])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("cut.jpg: truncated JPEG data"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("strict.png")))
        let lenient = try await CommandRunner.run(["convert", cut, "-o", folder.path("lenient.png"), "--fail-on", "none"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("darkroom: warning: \(cut): JPEG data is truncated"), "\(lenient.stderr)")
        #expect(try ImageProbe.probe(FileBytes.read(folder.path("lenient.png"))).size == PixelSize(width: 96, height: 64))
        let truncatedLevel = try await CommandRunner.run(["convert", cut, "-o", folder.path("t.png"), "--fail-on", "truncated"])
        #expect(truncatedLevel.status == refused.status)
    }

    @Test("an unknown level is refused by name with the nearest one")
    func unknownLevel() async throws {
        let folder = try TemporaryDirectory()
        let cut = try Self.cutFile("cut.jpg", format: .jpeg, in: folder)
        let outcome = try await CommandRunner.run(["convert", cut, "-o", folder.path("x.png"), "--fail-on", "truncate"])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("--fail-on"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("did you mean 'truncated'?"), "\(outcome.stderr)")
    }

    @Test("render follows [decode] fail-on in filters.d, and --fail-on overrides it")
    func renderWithConfiguration() async throws {
        let folder = try TemporaryDirectory()
        let cut = try Self.cutFile("cut.png", format: .png, in: folder)
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "[decode]\nfail-on = \"none\"\n".write(toFile: config + "/10-decode.toml", atomically: true, encoding: .utf8)
        let check = try await CommandRunner.run(["check", "--config", config])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let list = try await CommandRunner.run(["list", "--config", config])
        #expect(list.stdout.contains("fail-on = none  (\(config)/10-decode.toml:2)"), "\(list.stdout.suffix(200))")
        let listJSON = try await CommandRunner.run(["list", "--json", "--config", config])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(listJSON.stdout.utf8)) as? [String: Any])
        let decode = try #require(listed["decode"] as? [String: String])
        #expect(decode == ["failOn": "none", "definedAt": "\(config)/10-decode.toml:2"])
        let lenient = try await CommandRunner.run(
            ["render", cut, "--variant", "thumbnail", "--config", config, "-o", folder.path("thumb.jpg"), "--no-cache"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("cut.png: PNG data is truncated"), "\(lenient.stderr)")
        let strict = try await CommandRunner.run(
            ["render", cut, "--variant", "thumbnail", "--config", config, "-o", folder.path("strict.jpg"), "--no-cache",
             "--fail-on", "warning"])
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("truncated PNG data"), "\(strict.stderr)")
    }

    @Test("batch renders a cut file beside an intact one at --fail-on none, naming the cut one in its warning")
    func batch() async throws {
        let folder = try TemporaryDirectory()
        let cut = try Self.cutFile("cut.webp", format: .webp, in: folder)
        let intact = folder.path("intact.jpg")
        try Data(try Registry.standard.encode(Pattern.photo(width: 96, height: 64), options: EncodeOptions(format: .jpeg)))
            .write(to: URL(fileURLWithPath: intact))
        let strict = try await CommandRunner.run(["batch", cut, intact, "--variant", "thumbnail", "--out", folder.path("a"), "--no-cache"])
        #expect(strict.status != 0)
        #expect(strict.stdout.contains("1 done, 1 failed"), "\(strict.stdout)")
        let lenient = try await CommandRunner.run(
            ["batch", cut, intact, "--variant", "thumbnail", "--out", folder.path("b"), "--no-cache", "--fail-on", "none"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stdout.contains("2 done, 0 failed"), "\(lenient.stdout)")
        let warnings = lenient.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 1, "\(lenient.stderr)")
        #expect(warnings.first?.contains("cut.webp: WebP data is truncated") == true, "\(lenient.stderr)")
    }
}
