import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Bad input through the CLI

@Suite("bad input exits 1 with one clear line, fast, and writes nothing")
struct BadInputTests {
    @Test(
        "each bad input is refused with its reason",
        arguments: [
            ("empty.jpg", "empty input"),
            ("truncated.jpg", "JPEG"),
            ("html.jpg", "HTML"),
            ("scrambled.jpg", "unrecognised image format"),
            ("bomb-40000.png", "40000×40000"),
            ("bomb-65535.gif", "65535×65535"),
            ("does-not-exist.jpg", "no such file"),
        ])
    func refused(file: String, reason: String) async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("out.png")
        let input = Fixtures.path(file)
        let outcome = try await CommandRunner.run(["convert", input, "-o", output])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines.count == 1, "stderr was: \(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("darkroom: error: \(input): "), "stderr was: \(outcome.stderr)")
        #expect(outcome.stderr.contains(reason), "stderr was: \(outcome.stderr)")
        #expect(outcome.seconds < 1.0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("a folder given as input is refused")
    func folderInput() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", folder.url.path, "-o", folder.path("x.png")])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("directory"))
    }

    @Test("an unknown output extension names the extension")
    func unknownExtension() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", folder.path("out.xyz")])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains(".xyz"))
    }

    @Test("an out-of-range quality is refused before decoding")
    func badQuality() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", folder.path("o.jpg"), "--quality", "0"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("quality"))
    }

    @Test("a bad --max-size names the expected form")
    func badMaxSize() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", folder.path("o.jpg"), "--max-size", "big"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("WxH"))
    }

    @Test("a failed conversion leaves an existing output untouched")
    func keepsExistingOutput() async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("keep.png")
        try Data("previous".utf8).write(to: URL(fileURLWithPath: output))
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("truncated.jpg"), "-o", output])
        #expect(outcome.status == 1)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["keep.png"])
    }
}
