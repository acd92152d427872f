import DarkroomServer
import Foundation
import DarkroomTestSupport
import Testing

// MARK: - Bad requests

@Suite("The image server answers bad requests with a status and a message naming the problem")
struct ImageServerErrorTests {
    /// `path` answers `status`, a plain-text uncached message containing every one of `words`.
    func expectFailure(
        _ server: TestServer, _ path: String, method: String = "GET", status: Int, _ words: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let response = await server.get(path, method: method)
        #expect(response.status == status, "\(path): \(response.text)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8", sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        for word in words {
            #expect(response.text.contains(word), "\(path): '\(response.text)' lacks '\(word)'", sourceLocation: sourceLocation)
        }
    }

    @Test("An unknown variant is 404 with the nearest name")
    func unknownVariant() async throws {
        await expectFailure(try ServerFixture().server(), "/thum/gradient.jpg", status: 404, "thum", "did you mean 'thumb'?")
    }

    @Test("A missing file, a folder and a path through a file are 404")
    func missingFiles() async throws {
        let server = try ServerFixture().server()
        await expectFailure(server, "/thumb/nope.jpg", status: 404, "nope.jpg", "no such file")
        await expectFailure(server, "/thumb/folder.jpg", status: 404, "folder.jpg", "directory")
        await expectFailure(server, "/thumb/gradient.jpg/x.jpg", status: 404, "gradient.jpg/x.jpg")
        await expectFailure(server, "/thumb/gradient.jpg/", status: 404, "gradient.jpg/", "not a directory")
        #expect(await server.get("/thumb/sub//deep.jpg").status == 200)
    }

    @Test("Paths escaping the root are 403: '..', encoded '..', absolute paths, symbolic links out")
    func escapes() async throws {
        let server = try ServerFixture().server()
        await expectFailure(server, "/thumb/../secret.jpg", status: 403, "'..' is not allowed")
        await expectFailure(server, "/thumb/sub/%2E%2E/%2e%2e/secret.jpg", status: 403, "'..' is not allowed")
        await expectFailure(server, "/thumb//etc/passwd", status: 403, "absolute paths are not allowed")
        await expectFailure(server, "/thumb/escape.jpg", status: 403, "escape.jpg", "outside")
    }

    @Test("Bytes that are not an image are 422, naming what they look like without quoting them")
    func notAnImage() async throws {
        let server = try ServerFixture().server()
        await expectFailure(server, "/thumb/notes.jpg", status: 422, "HTML")
        #expect(await !server.get("/thumb/notes.jpg").text.contains("starts with"))
    }

    @Test("A name too long for the file system and a symbolic-link loop are 404, not server errors")
    func unreachableNames() async throws {
        let fixture = try ServerFixture()
        try FileManager.default.createSymbolicLink(atPath: fixture.root.path("loop-a"), withDestinationPath: "loop-b")
        try FileManager.default.createSymbolicLink(atPath: fixture.root.path("loop-b"), withDestinationPath: "loop-a")
        let server = try fixture.server()
        await expectFailure(server, "/thumb/" + String(repeating: "a", count: 300) + ".jpg", status: 404, "file name too long")
        await expectFailure(server, "/thumb/loop-a", status: 404, "too many levels of symbolic links")
    }

    @Test("An unknown variant's suggestion names only configured variants, and a huge name is cut short, fast")
    func unknownVariantNames() async throws {
        let server = try ServerFixture().server(webP: true, avif: true)
        let twin = await server.get("/thumbwebp/gradient.jpg")
        #expect(twin.status == 404)
        #expect(!twin.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(twin.text)")
        await expectFailure(server, "/thum/gradient.jpg", status: 404, "did you mean 'thumb'?")
        let started = ContinuousClock.now
        let huge = await server.get("/" + String(repeating: "v", count: 80_000) + "/gradient.jpg")
        #expect(huge.status == 404)
        #expect(huge.body.count < 400, "\(huge.body.count) bytes")
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test("Malformed paths are 400")
    func malformedPaths() async throws {
        let server = try ServerFixture().server()
        await expectFailure(server, "/thumb", status: 400, "/VARIANT/SOURCE")
        await expectFailure(server, "/thumb/", status: 400, "no source")
        await expectFailure(server, "/", status: 400, "/VARIANT/SOURCE")
        await expectFailure(server, "/thumb/a%zz.jpg", status: 400, "percent-encoded")
        await expectFailure(server, "/thumb/a%00.jpg", status: 400, "percent-encoded")
        await expectFailure(server, "/thumb/ftp%3A%2F%2F127.0.0.1%2Fa.jpg", status: 400, "ftp")
    }

    @Test("Methods other than GET and HEAD are 405 with Allow")
    func methods() async throws {
        let server = try ServerFixture().server()
        await expectFailure(server, "/thumb/gradient.jpg", method: "POST", status: 405, "POST")
        #expect(await server.get("/thumb/gradient.jpg", method: "DELETE").header("Allow") == "GET, HEAD")
    }

    @Test("Source kinds the server was started without are 403, saying so")
    func switchedOff() async throws {
        let fixture = try ServerFixture()
        await expectFailure(try fixture.server(root: false), "/thumb/gradient.jpg", status: 403, "file sources are off")
        await expectFailure(
            try fixture.server(remote: false), "/thumb/http%3A%2F%2F127.0.0.1%2Fa.jpg", status: 403, "remote sources are off")
    }
}
