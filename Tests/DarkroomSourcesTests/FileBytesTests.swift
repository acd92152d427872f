import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

@Suite("FileBytes reads what a file holds, even when its size is not known in advance")
struct FileBytesTests {
    @Test("a /proc file reports no size but is read to its end; an empty file is empty")
    func unsizedFiles() throws {
        let status = try FileBytes.read("/proc/self/status")
        #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
        let folder = try TemporaryDirectory()
        try AtomicFileWriter.write([], to: folder.path("empty"), flushesToDisk: false)
        #expect(try FileBytes.read(folder.path("empty")).isEmpty)
        #expect {
            try FileBytes.read("/proc/self/status", maxBytes: 10)
        } throws: { error in
            if case DarkroomError.inputTooLarge(_, limit: 10) = error { return true }
            return false
        }
    }
}
