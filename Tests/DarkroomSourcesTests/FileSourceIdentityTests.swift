import DarkroomCore
@testable import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - FileSource identity: one stat for a location seen before

@Suite("FileSource remembers resolved locations without letting a changed path escape")
struct FileSourceIdentityTests {
    /// root/a.jpg, root/b.jpg, root/link.jpg → a.jpg; outside/secret.jpg.
    final class Layout: Sendable {
        let top: TemporaryDirectory
        let root: String
        let outside: String

        init() throws {
            top = try TemporaryDirectory()
            root = top.path("root")
            outside = top.path("outside")
            let fm = FileManager.default
            try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
            try fm.createDirectory(atPath: outside, withIntermediateDirectories: true)
            try fm.copyItem(atPath: Fixtures.path("gradient.jpg"), toPath: root + "/a.jpg")
            try fm.copyItem(atPath: Fixtures.path("gradient-progressive.jpg"), toPath: root + "/b.jpg")
            try fm.copyItem(atPath: Fixtures.path("gradient.jpg"), toPath: outside + "/secret.jpg")
            try fm.createSymbolicLink(atPath: root + "/link.jpg", withDestinationPath: root + "/a.jpg")
        }

        func retarget(_ link: String, to destination: String) throws {
            try FileManager.default.removeItem(atPath: root + "/" + link)
            try FileManager.default.createSymbolicLink(atPath: root + "/" + link, withDestinationPath: destination)
        }
    }

    @Test("repeated identities agree and are remembered once")
    func stable() throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        let first = try source.identity(for: "a.jpg")
        #expect(source.memo.count == 1)
        for _ in 0..<5 { #expect(try source.identity(for: "a.jpg") == first) }
        #expect(source.memo.count == 1)
        #expect(first.key == source.root + "/a.jpg")
        #expect(try source.identity(for: "link.jpg").key == first.key)
    }

    @Test("a symbolic link retargeted outside the root is refused even after it was resolved")
    func retargetedOutside() async throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        _ = try source.identity(for: "link.jpg")
        try layout.retarget("link.jpg", to: layout.outside + "/secret.jpg")
        #expect(throws: DarkroomError.self) { try source.identity(for: "link.jpg") }
        #expect(throws: DarkroomError.self) { try source.key(for: "link.jpg") }
        await #expect(throws: DarkroomError.self) { try await source.load("link.jpg") }
    }

    @Test("a symbolic link retargeted inside the root names its new file")
    func retargetedInside() throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        #expect(try source.identity(for: "link.jpg").key == source.root + "/a.jpg")
        try layout.retarget("link.jpg", to: layout.root + "/b.jpg")
        #expect(try source.identity(for: "link.jpg").key == source.root + "/b.jpg")
    }

    @Test("a file replaced by a rename gets a new fingerprint; a deleted one is missing")
    func replacedAndDeleted() throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        let before = try source.identity(for: "a.jpg")
        let staged = layout.root + "/.staged"
        try FileManager.default.copyItem(atPath: Fixtures.path("gradient-progressive.jpg"), toPath: staged)
        #expect(rename(staged, layout.root + "/a.jpg") == 0)
        let after = try source.identity(for: "a.jpg")
        #expect(after.key == before.key)
        #expect(after.fingerprint != before.fingerprint)
        try FileManager.default.removeItem(atPath: layout.root + "/a.jpg")
        #expect(throws: DarkroomError.io(path: "a.jpg", detail: "no such file or directory")) {
            try source.identity(for: "a.jpg")
        }
    }

    @Test("a file rewritten in place, or its modification time set, gets the fingerprint its new stat gives")
    func rewrittenInPlace() throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        let path = layout.root + "/a.jpg"
        let before = try source.identity(for: "a.jpg")
        #expect(try source.identity(for: "a.jpg") == before)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data([0xFF, 0xD9]))
        try handle.close()
        var info = stat()
        #expect(stat(path, &info) == 0)
        let appended = try source.identity(for: "a.jpg")
        #expect(appended.key == before.key && appended.fingerprint != before.fingerprint)
        #expect(appended.fingerprint == FileSource.fingerprint(of: info))
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(stat(path, &info) == 0)
        #expect(try source.identity(for: "a.jpg").fingerprint == FileSource.fingerprint(of: info))
    }

    @Test("a remembered fingerprint is reused only for the size, modification time and inode it was made of")
    func rememberedFingerprint() throws {
        let layout = try Layout()
        var info = stat()
        #expect(stat(layout.root + "/a.jpg", &info) == 0)
        let entry = ResolvedLocationMemo.Entry(path: "/r/a.jpg", joined: "/r/a.jpg", info: info, fingerprint: "remembered")
        #expect(entry.fingerprint(ifUnchangedIn: info) == "remembered")
        // The same status-change time (a write within one clock tick) but another size or time.
        var grown = info
        grown.st_size += 1
        #expect(entry.isSameFile(as: grown) && entry.fingerprint(ifUnchangedIn: grown) == nil)
        var touched = info
        touched.st_mtim.tv_nsec = (touched.st_mtim.tv_nsec + 1) % 1_000_000_000
        #expect(entry.isSameFile(as: touched) && entry.fingerprint(ifUnchangedIn: touched) == nil)
    }

    @Test("a file renamed away and another renamed into its place is resolved again")
    func renamedAway() throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        #expect(try source.identity(for: "link.jpg").key == source.root + "/a.jpg")
        // a.jpg moves out of the root (same inode, new ctime); link.jpg now dangles.
        #expect(rename(layout.root + "/a.jpg", layout.outside + "/moved.jpg") == 0)
        #expect(throws: DarkroomError.self) { try source.identity(for: "link.jpg") }
        // The link pointed straight at the moved file: same inode, but its ctime changed.
        try layout.retarget("link.jpg", to: layout.outside + "/moved.jpg")
        #expect(throws: DarkroomError.self) { try source.identity(for: "link.jpg") }
    }

    @Test("lexical refusals come before any lookup", arguments: ["/etc/passwd", "../outside/secret.jpg", ""])
    func lexical(location: String) throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        #expect(throws: DarkroomError.self) { try source.identity(for: location) }
        #expect(source.memo.count == 0)
    }

    @Test("the memo stays bounded")
    func bounded() {
        let memo = ResolvedLocationMemo(capacity: 8)
        for i in 0..<50 { memo.remember("f\(i)", .init(path: "/r/f\(i)", joined: "/r/f\(i)", device: 1, inode: UInt64(i), changed: 0)) }
        #expect(memo.count <= 8)
        #expect(memo.entry(for: "f49")?.inode == 49)
    }

    @Test("concurrent identities from many tasks agree")
    func concurrent() async throws {
        let layout = try Layout()
        let source = try FileSource(root: layout.root)
        let expected = try source.identity(for: "b.jpg")
        let results = try await withThrowingTaskGroup(of: (key: String, fingerprint: String?).self) { group in
            for i in 0..<64 { group.addTask { try source.identity(for: i.isMultiple(of: 2) ? "b.jpg" : "./b.jpg") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0.key == expected.key && $0.fingerprint == expected.fingerprint })
    }
}
