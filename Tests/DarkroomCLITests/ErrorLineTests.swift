@testable import DarkroomCLI
import DarkroomTestSupport
import Foundation
import Testing

@Suite("error lines hide URL credentials and show control characters escaped")
struct ErrorLineTests {
    @Test("user names and passwords in URLs are replaced, everything else is kept")
    func hidesCredentials() {
        #expect(CommandFailure.shown("http://me:secret@127.0.0.1/a.jpg") == "http://***@127.0.0.1/a.jpg")
        #expect(CommandFailure.shown("https://token@127.0.0.1") == "https://***@127.0.0.1")
        #expect(CommandFailure.shown("https://127.0.0.1/a@b.jpg") == "https://127.0.0.1/a@b.jpg")
        #expect(CommandFailure.shown("a http://u:p@127.0.0.2/1 b https://127.0.0.3/2") == "a http://***@127.0.0.2/1 b https://127.0.0.3/2")
        #expect(CommandFailure.shown("photos/me@home.jpg") == "photos/me@home.jpg")
    }

    @Test("control characters are escaped, tabs and text are not")
    func escapesControlCharacters() {
        #expect(CommandFailure.escapingControlCharacters("a\u{1}b\u{1b}[31m\tc é") == "a\\u{1}b\\u{1b}[31m\tc é")
    }

    @Test("a binary file given as URL list is refused as such")
    func binaryURLList() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run([
            "batch", "--url-list", Fixtures.path("gradient.jpg"), "--variant", "thumbnail", "--out", folder.url.path,
        ])
        #expect(outcome.status == 74)
        #expect(outcome.stderr == "darkroom: error: \(Fixtures.path("gradient.jpg")): not a URL list: the file is not UTF-8 text\n")
    }

    @Test("a file name starting with '-' is an unknown option with a hint, never help and exit 0")
    func dashedFileName() async throws {
        let folder = try TemporaryDirectory()
        let commands = [
            ["render", "-dash.gif", "--variant", "thumbnail", "-o", folder.path("x.jpg")],
            ["batch", Fixtures.path("gradient.jpg"), "-hello.png", "--variant", "thumbnail", "--out", folder.path("o")],
            ["probe", "-h.jpg"],
        ]
        for arguments in commands {
            let outcome = try await CommandRunner.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stdout.isEmpty, "\(outcome.stdout)")
            #expect(outcome.stderr.hasPrefix("darkroom: error: \(arguments[0]): unknown option '-"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("write ./-"), "\(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("o")))
        #expect(DarkroomCommand.dashedWord(in: ["convert", "a.jpg", "--quality", "-5"]) == nil)
        #expect(DarkroomCommand.dashedWord(in: ["render", "--", "-dash.gif"]) == nil)
        #expect(DarkroomCommand.dashedWord(in: ["render", "-h"]) == nil)
    }

    @Test("convert to an existing folder says so, whatever the folder's name")
    func convertIntoFolder() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", folder.url.path])
        #expect(outcome.status == 74)
        #expect(outcome.stderr.contains("is a folder, not a file"), "\(outcome.stderr)")
    }

    @Test("probe and convert, which read files, say which commands fetch a URL")
    func urlToFileCommands() async throws {
        let folder = try TemporaryDirectory()
        // A loopback URL (nothing listens on port 9): refused by its scheme, never fetched.
        let url = "http://127.0.0.1:9/a.jpg"
        for arguments in [["probe", url], ["convert", url, "-o", folder.path("a.png")]] {
            let outcome = try await CommandRunner.run(arguments)
            #expect(outcome.status == 64)
            #expect(outcome.stderr.contains("expected a file (render and batch fetch URLs)"), "\(outcome.stderr)")
        }
    }
}
