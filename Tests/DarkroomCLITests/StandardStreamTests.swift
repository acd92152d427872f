import Darkroom
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - - for standard input and output

@Suite("convert and render read standard input and write standard output for -")
struct StandardStreamTests {
    @Test("convert - -o - --format png turns a piped JPEG into PNG bytes on standard output; the summary goes to standard error")
    func convertPipeToPipe() async throws {
        let outcome = try await CommandRunner.run(
            ["convert", "-", "-o", "-", "--format", "png"], standardInput: Fixtures.path("gradient.jpg"))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try ImageProbe.probe(outcome.stdoutBytes).format == .png)
        let piped = try Registry.standard.decode(outcome.stdoutBytes)
        let direct = try Registry.standard.decode(Fixtures.bytes("gradient.jpg"))
        #expect(piped.size == direct.size)
        #expect(ImageComparison.meanAbsoluteError(piped, direct, includeAlpha: false) == 0)
        #expect(outcome.stderr.contains("standard input (jpeg 64x48) -> standard output (png 64x48"))
    }

    @Test("convert gives the same bytes through the streams as through files")
    func convertStreamsMatchFiles() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.path("out.webp")
        let viaFiles = try await CommandRunner.run(["convert", Fixtures.path("gradient-rgb.png"), "-o", file, "--max-size", "32x32"])
        let viaStreams = try await CommandRunner.run(
            ["convert", "-", "-o", "-", "--format", "webp", "--max-size", "32x32"], standardInput: Fixtures.path("gradient-rgb.png"))
        #expect(viaFiles.status == 0 && viaStreams.status == 0, "\(viaFiles.stderr) \(viaStreams.stderr)")
        #expect(viaStreams.stdoutBytes == (try FileBytes.read(file)))
    }

    @Test("-o - without --format is a usage error naming --format; nothing is written")
    func standardOutputNeedsFormat() async throws {
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", "-"])
        #expect(outcome.status == 64)
        #expect(outcome.stdoutBytes.isEmpty)
        #expect(outcome.stderr.contains("--format"), "\(outcome.stderr)")
    }

    @Test("an empty standard input is refused as empty input, naming standard input")
    func emptyStandardInput() async throws {
        let outcome = try await CommandRunner.run(["convert", "-", "-o", "-", "--format", "png"])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.hasPrefix("darkroom: error: standard input: "), "\(outcome.stderr)")
        #expect(outcome.stdoutBytes.isEmpty)
    }

    @Test("render - --variant V -o - renders piped bytes as the file would be rendered")
    func renderPipeToPipe() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.path("avatar.png")
        let viaFile = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--variant", "avatar", "-o", file, "--no-cache"])
        let viaStreams = try await CommandRunner.run(
            ["render", "-", "--variant", "avatar", "-o", "-"], standardInput: Fixtures.path("gradient.jpg"))
        #expect(viaFile.status == 0 && viaStreams.status == 0, "\(viaFile.stderr) \(viaStreams.stderr)")
        #expect(!viaStreams.stdoutBytes.isEmpty)
        #expect(viaStreams.stdoutBytes == (try FileBytes.read(file)))
        #expect(viaStreams.stderr.contains("avatar: standard output"))
    }

    @Test("piped renders are never cached: two different images through - give two different outputs")
    func pipedRendersAreNotCached() async throws {
        let first = try await CommandRunner.run(
            ["render", "-", "--variant", "avatar", "-o", "-"], standardInput: Fixtures.path("gradient.jpg"))
        let second = try await CommandRunner.run(
            ["render", "-", "--variant", "avatar", "-o", "-"], standardInput: Fixtures.path("blocks-palette.png"))
        #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
        #expect(first.stdoutBytes != second.stdoutBytes)
        #expect(!second.stderr.contains("cache"))
    }

    @Test("render -o - with several variants is refused: standard output takes one image")
    func severalVariantsToStandardOutput() async throws {
        let outcome = try await CommandRunner.run(
            ["render", Fixtures.path("gradient.jpg"), "--variant", "avatar", "--variant", "thumbnail", "-o", "-"])
        #expect(outcome.status == 64)
        #expect(outcome.stdoutBytes.isEmpty)
        #expect(outcome.stderr.contains("standard output takes one image"), "\(outcome.stderr)")
    }
}
