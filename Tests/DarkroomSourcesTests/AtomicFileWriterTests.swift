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
}
