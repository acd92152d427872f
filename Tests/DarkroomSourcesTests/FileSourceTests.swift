import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - FileSource

@Suite("FileSource serves files under its root and refuses everything that escapes it")
struct FileSourceTests {
    /// root/ holds a.jpg and sub/b.png; outside/ holds secret.jpg; root/link → outside/secret.jpg.
    final class Layout: Sendable {
        let top: TemporaryDirectory
        let root: String

        init() throws {
            top = try TemporaryDirectory()
            root = top.path("root")
            let fm = FileManager.default
            try fm.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
            try fm.createDirectory(atPath: top.path("outside"), withIntermediateDirectories: true)
            try fm.copyItem(atPath: Fixtures.path("gradient.jpg"), toPath: root + "/a.jpg")
            try fm.copyItem(atPath: Fixtures.path("gradient-rgba.png"), toPath: root + "/sub/b.png")
            try fm.copyItem(atPath: Fixtures.path("gradient.jpg"), toPath: top.path("outside/secret.jpg"))
            try fm.createSymbolicLink(atPath: root + "/link.jpg", withDestinationPath: top.path("outside/secret.jpg"))
            try fm.createSymbolicLink(atPath: root + "/outdir", withDestinationPath: top.path("outside"))
            try fm.createSymbolicLink(atPath: root + "/inside.jpg", withDestinationPath: root + "/a.jpg")
        }
    }

    @Test("relative paths inside the root load, with the resolved path as key")
    func loads() async throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        let data = try await source.load("sub/b.png")
        #expect(data.bytes == Fixtures.bytes("gradient-rgba.png"))
        #expect(data.key.hasSuffix("/root/sub/b.png"))
        #expect(try await source.load("./a.jpg").bytes.count > 0)
        #expect(try await source.load("inside.jpg").bytes == Fixtures.bytes("gradient.jpg"))
    }

    @Test("escapes are refused", arguments: ["../outside/secret.jpg", "sub/../../outside/secret.jpg", "/etc/passwd", "link.jpg", "outdir/secret.jpg", ""])
    func refused(location: String) async throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        await #expect(throws: DarkroomError.self) { try await source.load(location) }
    }

    @Test("the file system's root works as a root: any absolute file, named relative to /")
    func slashRoot() async throws {
        let layout = try Layout()
        let source = try FileSource(root: "/")
        let relative = String(layout.root.drop { $0 == "/" }) + "/sub/b.png"
        #expect(try await source.load(relative).bytes == Fixtures.bytes("gradient-rgba.png"))
        // Symbolic links are resolved and still inside "/".
        #expect(try await source.load(String(layout.root.drop { $0 == "/" }) + "/link.jpg").bytes == Fixtures.bytes("gradient.jpg"))
    }

    @Test("a missing file names the location, not the server's path")
    func missing() async throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        await #expect(throws: DarkroomError.io(path: "nope.jpg", detail: "no such file or directory")) {
            try await source.load("nope.jpg")
        }
    }

    @Test("a root that is not a folder is refused")
    func badRoot() {
        #expect(throws: DarkroomError.self) { try FileSource(root: Fixtures.path("gradient.jpg")) }
    }

    @Test("URLs are declined so another source can take them")
    func declines() throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        #expect(!source.canLoad("https://127.0.0.1/a.jpg"))
        #expect(source.canLoad("a.jpg"))
    }
}

@Suite("MemorySource serves named bytes")
struct MemorySourceTests {
    @Test("known names load; unknown names fail clearly")
    func memory() async throws {
        let source = MemorySource(["logo": [1, 2, 3]])
        #expect(source.canLoad("memory:logo"))
        #expect(!source.canLoad("logo"))
        #expect(try await source.load("memory:logo").bytes == [1, 2, 3])
        await #expect(throws: DarkroomError.self) { try await source.load("memory:other") }
    }
}
