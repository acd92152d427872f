import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

@Suite("AtomicFileWriter writes whole files under any name the file system allows")
struct AtomicFileWriterTests {
    @Test("names up to the 255-byte limit, ASCII and multi-byte, are written, with no temporary left")
    func longNames() throws {
        let folder = try TemporaryDirectory()
        for name in [String(repeating: "g", count: 251) + ".jpg", String(repeating: "é", count: 125) + ".png"] {
            #expect(name.utf8.count >= 254)
            let path = folder.path(name)
            try AtomicFileWriter.write([1, 2, 3], to: path, flushesToDisk: false)
            #expect(try FileBytes.read(path) == [1, 2, 3])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count == 2)
    }

    @Test("a write replaces the file whole, into folders it creates")
    func replaces() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("a/b/out.bin")
        try AtomicFileWriter.write([1], to: path, flushesToDisk: false)
        try AtomicFileWriter.write([2, 2], to: path)
        #expect(try FileBytes.read(path) == [2, 2])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("a/b")) == ["out.bin"])
    }

    @Test("a symbolic link is followed: its target is replaced and the link kept")
    func followsLinks() throws {
        let folder = try TemporaryDirectory()
        try AtomicFileWriter.write([1], to: folder.path("target.bin"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.bin"), withDestinationPath: folder.path("target.bin"))
        try AtomicFileWriter.write([7, 7], to: folder.path("link.bin"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.bin")) == folder.path("target.bin"))
        #expect(try FileBytes.read(folder.path("target.bin")) == [7, 7])
        try FileManager.default.createSymbolicLink(atPath: folder.path("dangling.bin"), withDestinationPath: folder.path("nowhere/x"))
        #expect(throws: DarkroomError.self) { try AtomicFileWriter.write([1], to: folder.path("dangling.bin")) }
    }

    @Test("a character device is written to, never replaced by a file")
    func writesIntoDevices() throws {
        try AtomicFileWriter.write([1, 2, 3], to: "/dev/null")
        var status = stat()
        #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("a FIFO is written to when someone reads it, and refused (not waited on, not replaced) when nobody does")
    func fifos() async throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let error = try #require(throws: DarkroomError.self) { try AtomicFileWriter.write([1], to: fifo) }
        #expect(error == .io(path: fifo, detail: "is a FIFO that nobody reads"))
        // With a reader holding it open, the bytes go through the pipe.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try AtomicFileWriter.write([4, 5, 6], to: fifo)
        var received = [UInt8](repeating: 0, count: 8)
        let count = read(reader, &received, 8)
        #expect(Array(received.prefix(max(0, count))) == [4, 5, 6])
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("a folder at the path is refused by name")
    func folders() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: DarkroomError.io(path: folder.url.path, detail: "is a folder, not a file")) {
            try AtomicFileWriter.write([1], to: folder.url.path)
        }
    }
}
