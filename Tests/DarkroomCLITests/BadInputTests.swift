import DarkroomTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Bad input through the CLI

@Suite("bad input exits with its sysexits status and one clear line, fast, and writes nothing")
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
            // gradient.avif with 38 bytes of its AV1 data inverted: dav1d prints "Unknown OBU
            // type 14 of size 151" to C's stderr itself, which now joins the one error line.
            ("avif-bad-obu.avif", "Unknown OBU type"),
        ])
    func refused(file: String, reason: String) async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("out.png")
        let input = Fixtures.path(file)
        let outcome = try await CommandRunner.run(["convert", input, "-o", output])
        #expect(outcome.status == (file == "does-not-exist.jpg" ? 66 : 65), "EX_NOINPUT for a missing file, else EX_DATAERR")
        #expect(outcome.stderrLines.count == 1, "stderr was: \(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("darkroom: error: \(input): "), "stderr was: \(outcome.stderr)")
        #expect(outcome.stderr.contains(reason), "stderr was: \(outcome.stderr)")
        // Refused from the header, not after a 40000×40000 decode. The bound only catches that
        // decode (or a hang): one full CI run on 2 cores froze every process for a minute while
        // plugin packages built, and three of these took 64 s each.
        #expect(outcome.seconds < 120)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("a folder given as input is refused")
    func folderInput() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", folder.url.path, "-o", folder.path("x.png")])
        #expect(outcome.status == 66)
        #expect(outcome.stderr.contains("directory"))
    }

    @Test("an unknown output extension names the extension")
    func unknownExtension() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", folder.path("out.xyz")])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains(".xyz"))
    }

    @Test("an out-of-range quality is refused before decoding")
    func badQuality() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", folder.path("o.jpg"), "--quality", "0"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("quality"))
    }

    @Test("a bad --max-size names the expected form")
    func badMaxSize() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", folder.path("o.jpg"), "--max-size", "big"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("WxH"))
    }

    @Test("a FIFO nobody writes to is refused at once, as input or as an overlay")
    func fifoInput() async throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.path("pipe.png")
        #expect(mkfifo(fifo, 0o644) == 0)
        for arguments in [
            ["probe", fifo], ["convert", fifo, "-o", folder.path("o.png")],
            ["render", Fixtures.path("gradient.jpg"), "--filter", "overlay(path=\(fifo))", "-o", folder.path("o.png")],
        ] {
            let outcome = try await CommandRunner.run(arguments)
            #expect(outcome.status == 66, "\(arguments)")
            #expect(outcome.stderr == "darkroom: error: \(fifo): not a regular file\n", "\(arguments)")
        }
    }

    @Test("an overlay file that is not an image is named in the error, not the source")
    func badOverlayNamed() async throws {
        let folder = try TemporaryDirectory()
        let notes = folder.path("notes.png")
        try Data("hello, not an image".utf8).write(to: URL(fileURLWithPath: notes))
        let outcome = try await CommandRunner.run([
            "render", Fixtures.path("gradient.jpg"), "--filter", "overlay(path=\(notes))", "-o", folder.path("o.png"),
        ])
        #expect(outcome.status == 74)
        #expect(outcome.stderr.hasPrefix("darkroom: error: \(notes): unrecognised image format"), "\(outcome.stderr)")
    }

    @Test("render refuses an output extension it cannot write, and --format or --quality with a variant")
    func renderOutputFormat() async throws {
        let folder = try TemporaryDirectory()
        let input = Fixtures.path("gradient.jpg")
        let cases: [([String], String)] = [
            (["render", input, "--filter", "grayscale", "-o", folder.path("x.xyz")], "invalid output extension '.xyz'"),
            (["render", input, "--filter", "grayscale", "-o", folder.path("noext")], "invalid output extension '(none)'"),
            (["render", input, "--variant", "thumbnail", "-o", folder.path("t.jpg"), "--format", "png"], "--format with --variant"),
            (["render", input, "--variant", "thumbnail", "-o", folder.path("t.jpg"), "--quality", "50"], "--quality with --variant"),
        ]
        for (arguments, expected) in cases {
            let outcome = try await CommandRunner.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stderr.contains(expected), "\(arguments): \(outcome.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        let png = try await CommandRunner.run(["render", input, "--filter", "grayscale", "-o", folder.path("x.bin"), "--format", "png"])
        #expect(png.status == 0, "\(png.stderr)")
    }

    @Test("an empty output path is refused (it must not mean the root folder)")
    func emptyOutput() async throws {
        let input = Fixtures.path("gradient.jpg")
        for arguments in [
            ["convert", input, "-o", ""], ["render", input, "--filter", "grayscale", "-o", ""],
            ["render", input, "--variant", "thumbnail", "--variant", "avatar", "-o", ""],
            ["batch", input, "--variant", "thumbnail", "--out", ""],
        ] {
            let outcome = try await CommandRunner.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stderrLines.count == 1, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("empty") || outcome.stderr.contains("--output ''"), "\(outcome.stderr)")
        }
    }

    @Test("a batch whose --out is a file fails once, naming it, before rendering anything")
    func batchOutIsAFile() async throws {
        let folder = try TemporaryDirectory()
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder.path("out")))
        let outcome = try await CommandRunner.run([
            "batch", Fixtures.path("gradient.jpg"), Fixtures.path("gradient-rgb.png"), "--variant", "thumbnail",
            "--out", folder.path("out"), "--no-cache",
        ])
        #expect(outcome.status == 74)
        #expect(outcome.stderrLines == ["darkroom: error: \(folder.path("out")): --out names a file, not a folder"])
    }

    @Test("usage errors are one line naming the command, with status 64 (EX_USAGE); help still works")
    func usageErrors() async throws {
        let cases: [([String], String)] = [
            (["batch", "a.jpg", "--variant", "t", "--out", "o", "--jobs", "abc"], "darkroom: error: batch: "),
            (["batch", "a.jpg", "--variant", "t", "--out", "o", "--jobs", "-1"], "--jobs must be at least 1"),
            (["convert", "a.jpg"], "darkroom: error: convert: Missing"),
            (["convert", "a.jpg", "-o", "o.jpg", "--quality", "-5"], "invalid quality '-5'"),
            (["probe"], "darkroom: error: probe: Missing expected argument"),
            (["nosuch"], "darkroom: error: Unexpected argument 'nosuch'"),
        ]
        for (arguments, expected) in cases {
            let outcome = try await CommandRunner.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stderrLines.count == 1, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(expected), "\(arguments): \(outcome.stderr)")
        }
        let help = try await CommandRunner.run(["batch", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: darkroom batch"))
    }

    @Test("darkroom --help lists every exit status it uses, from sysexits.h")
    func helpListsExitStatuses() async throws {
        let help = try await CommandRunner.run(["--help"])
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for status in ["64 usage error", "65 the image data is bad", "66 an input file is missing", "69 a source failed",
                       "70 internal error", "74 other I/O error", "78 the configuration has errors"] {
            #expect(text.contains(status), "\(status): \(text)")
        }
    }

    @Test("a failed conversion leaves an existing output untouched")
    func keepsExistingOutput() async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("keep.png")
        try Data("previous".utf8).write(to: URL(fileURLWithPath: output))
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("truncated.jpg"), "-o", output])
        #expect(outcome.status == 65)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["keep.png"])
    }
}
