@testable import DarkroomCLI
import DarkroomTestSupport
@testable import DarkroomTools
import Foundation
import Testing

// MARK: - check --json, batch --json

@Suite("check and batch print JSON for scripts with --json")
struct JSONOutputTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test("check --json on a valid folder: its variants and files, no errors, status 0")
    func checkValid() async throws {
        let outcome = try await CommandRunner.run(["check", "--json", "--config", RenderCommandTests.config])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try Self.object(outcome.stdout)
        #expect(object["config"] as? String == RenderCommandTests.config)
        #expect((object["variants"] as? Int ?? 0) > 5)
        #expect((object["errors"] as? [Any])?.isEmpty == true)
        #expect((object["warnings"] as? [Any])?.isEmpty == true)
    }

    @Test("check --json on a broken folder: each error with file, line and message, status 78, nothing else on stdout")
    func checkBroken() async throws {
        let folder = try TemporaryDirectory()
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try Data("[variants.a]\nfilters = [ \"nosuch\" ]\n\n[variants.b]\nfilters = [ { filter = \"blur\", sigma = -1 } ]\n".utf8)
            .write(to: URL(fileURLWithPath: config + "/10-a.toml"))
        let outcome = try await CommandRunner.run(["check", "--json", "--config", config])
        #expect(outcome.status == 78)
        let errors = try #require(try Self.object(outcome.stdout)["errors"] as? [[String: Any]])
        #expect(errors.map { $0["line"] as? Int } == [2, 5])
        #expect(errors.allSatisfy { ($0["file"] as? String)?.hasSuffix("10-a.toml") == true })
        #expect((errors.first?["message"] as? String)?.contains("unknown filter 'nosuch'") == true)
    }

    @Test("batch --json: one JSON object on stdout, no line per input; a failure has its input, reason and status")
    func batchSummary() async throws {
        let out = try TemporaryDirectory()
        let missing = out.path("missing.jpg")
        let outcome = try await CommandRunner.run([
            "batch", Fixtures.path("gradient.jpg"), missing, Fixtures.path("blocks.gif"), "--variant", "thumbnail",
            "--config", RenderCommandTests.config, "--out", out.path("o"), "--json", "--no-cache",
        ])
        #expect(outcome.status == 66)
        #expect(outcome.stdout.split(separator: "\n").count == 1, "\(outcome.stdout)")
        let object = try Self.object(outcome.stdout)
        #expect(object["done"] as? Int == 2)
        #expect(object["failed"] as? Int == 1)
        #expect(object["filesWritten"] as? Int == 2)
        #expect(object["fromCache"] as? Int == 0)
        #expect(object["seconds"] is Double || object["seconds"] is Int)
        let failures = try #require(object["failures"] as? [[String: Any]])
        #expect(failures.count == 1)
        #expect(failures.first?["input"] as? String == missing)
        #expect((failures.first?["error"] as? String)?.contains("no such file or directory") == true)
        #expect(failures.first?["status"] as? Int == 66)
        #expect(outcome.stderrLines == ["darkroom: error: \(missing): no such file or directory"])
    }
}

// MARK: - The progress bar

@Suite("batch's progress bar on a terminal shows the rate, the time left and the input")
struct ProgressBarTests {
    @Test("through a pseudo-terminal (script(1)): rate, ETA or done, and the name of a finished input")
    func onTerminal() async throws {
        let out = try TemporaryDirectory()
        let command = [
            CommandRunner.executable.path, "batch", Fixtures.path("gradient.jpg"), Fixtures.path("blocks.gif"),
            "--variant", "thumbnail", "--config", RenderCommandTests.config, "--out", out.path("o"), "--no-cache",
        ].map { "'\($0)'" }.joined(separator: " ")
        let outcome = try await CommandRunner.run(
            ["-q", "-e", "-c", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout.contains("] 2/2  "), "\(outcome.stdout)")
        #expect(outcome.stdout.contains(" img/s  done  "), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("blocks.gif") || outcome.stdout.contains("gradient.jpg"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("\u{1B}[K"))
        #expect(!outcome.stdout.contains("[1/2] "), "no plain lines on a terminal: \(outcome.stdout)")
    }
}

@Suite("The bar line fits the terminal and estimates the time left")
struct ProgressBarLineTests {
    static func progress(_ finished: Int, of total: Int, input: String) -> Batch.Progress {
        Batch.Progress(finished: finished, total: total, input: input, outputs: [], cached: 0, error: nil)
    }

    @Test("rate and ETA from the elapsed time; the whole name when it fits")
    func rateAndETA() {
        let line = ProgressDisplay.barLine(Self.progress(10, of: 40, input: "photos/a.jpg"), elapsed: 5, columns: 100)
        #expect(line == "[#######.......................] 10/40  2.0 img/s  ETA 15s  photos/a.jpg")
    }

    @Test("a long name loses its start to fit the columns; a narrow terminal drops it")
    func fits() {
        let name = "/very/long/folder/name/that/goes/on/and/on/photo-0001.jpg"
        let line = ProgressDisplay.barLine(Self.progress(1, of: 3, input: name), elapsed: 1, columns: 80)
        #expect(line.count == 79)
        #expect(line.hasSuffix("photo-0001.jpg"))
        #expect(line.contains("…"))
        let narrow = ProgressDisplay.barLine(Self.progress(1, of: 3, input: name), elapsed: 1, columns: 40)
        #expect(narrow.count <= 39)
    }

    @Test("durations read as seconds, minutes:seconds, hours:minutes:seconds", arguments: [
        (0.2, "1s"), (6.0, "6s"), (59.5, "1:00"), (245.0, "4:05"), (3723.0, "1:02:03"),
    ])
    func durations(seconds: Double, text: String) {
        #expect(ProgressDisplay.duration(seconds) == text)
    }
}
