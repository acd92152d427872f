@testable import Darkroom
@testable import DarkroomTools
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Naming and finding a batch's inputs

@Suite("A batch names each input's outputs after its path, found without Foundation's URL")
struct BatchInputTests {
    /// Names whose stems must match what `URL.pathExtension` implies.
    static let names = [
        "a.jpg", ".jpg", "a.", "a.b.c", "dir.d/a", "a b.jp g", "a.JPG", "x/.hidden", "a..jpg",
        "sub/dir/img.png", "é.jpeg", "a.jpg ", ".a.b", "...", "a.jpg.", "a.j pg", "a. jpg", "noext",
        "deep/er/photo.tar.gz", "a.jp\tg", "a.j%g", "a.-",
    ]

    @Test("a stem drops what URL.pathExtension calls the extension", arguments: names)
    func stemMatchesURL(name: String) {
        let url = URL(fileURLWithPath: name)
        let expected = url.pathExtension.isEmpty ? name : String(name.dropLast(url.pathExtension.count + 1))
        #expect(BatchInput.stem(of: name) == expected)
    }

    @Test("the last component is URL.lastPathComponent's", arguments: [
        "a.jpg", "dir/a.jpg", "/abs/dir/b.png", "dir/sub/", "/", "a//b.jpg", "x/.hidden",
    ])
    func lastComponentMatchesURL(path: String) {
        #expect(BatchInput.lastComponent(of: path) == URL(fileURLWithPath: path).lastPathComponent)
    }

    @Test("files keep their names, folders are walked, repeats are dropped")
    func expandsFilesAndFolders() throws {
        let folder = try TemporaryDirectory()
        let png = try Registry.standard.encode(Pattern.photo(width: 8, height: 8), options: EncodeOptions(format: .png))
        try FileManager.default.createDirectory(atPath: folder.path("set/inner"), withIntermediateDirectories: true)
        for name in ["one.png", "set/two.png", "set/inner/three.png", "set/notes.txt"] {
            try Data(png).write(to: URL(fileURLWithPath: folder.path(name)))
        }
        let inputs = try BatchInput.expand([folder.path("one.png"), folder.path("set"), folder.path("set/two.png")])
        #expect(inputs.map(\.relativeStem) == ["one", "inner/three", "two"])
        #expect(inputs.map(\.path) == [folder.path("one.png"), folder.path("set") + "/inner/three.png", folder.path("set") + "/two.png"])
    }

    @Test("a folder walk skips hidden names, follows links to files and not to folders")
    func folderWalkRules() throws {
        let folder = try TemporaryDirectory()
        let png = try Registry.standard.encode(Pattern.photo(width: 8, height: 8), options: EncodeOptions(format: .png))
        let manager = FileManager.default
        for sub in ["set/b", "set/.cache", "elsewhere"] {
            try manager.createDirectory(atPath: folder.path(sub), withIntermediateDirectories: true)
        }
        for name in ["set/z.png", "set/a.PNG", "set/b/c.png", "set/.hidden.png", "set/.cache/d.png", "elsewhere/e.png"] {
            try Data(png).write(to: URL(fileURLWithPath: folder.path(name)))
        }
        try manager.createSymbolicLink(atPath: folder.path("set/linked.png"), withDestinationPath: folder.path("elsewhere/e.png"))
        try manager.createSymbolicLink(atPath: folder.path("set/loop"), withDestinationPath: folder.path("set"))
        try manager.createSymbolicLink(atPath: folder.path("set/dangling.png"), withDestinationPath: folder.path("gone.png"))
        let inputs = try BatchInput.expand([folder.path("set")])
        #expect(inputs.map(\.relativeStem) == ["a", "b/c", "linked", "z"])
    }

    @Test("a URL's output stem is its percent-decoded last segment, as Foundation decodes it", arguments: [
        "a%20b.jpg", "caf%C3%A9.png", "100%.jpg", "%zz.jpg", "%C3.jpg", "plain.jpg", "%2F.jpg", "a%2.jpg",
    ])
    func percentDecoding(segment: String) {
        let expected = segment.removingPercentEncoding
        #expect(BatchInput.percentDecoded(Substring(segment)) == expected)
    }

    @Test("expandAll sets unusable arguments aside with their errors and keeps the rest, in order")
    func unusableSetAside() throws {
        let folder = try TemporaryDirectory()
        try Data([1]).write(to: URL(fileURLWithPath: folder.path("a.jpg")))
        try Data([2]).write(to: URL(fileURLWithPath: folder.path("b.png")))
        let found = BatchInput.expandAll(
            [folder.path("a.jpg"), folder.path("nope.jpg"), "file:///etc/passwd", "http://[bad", folder.path("b.png")],
            key: { url in
                guard !url.contains("[") else { throw DarkroomError.fetchFailed(url: url, status: nil, reason: "not a valid URL") }
                return url
            })
        #expect(found.inputs.map(\.path) == [folder.path("a.jpg"), folder.path("b.png")])
        #expect(found.unusable.map(\.input) == [folder.path("nope.jpg"), "file:///etc/passwd", "http://[bad"])
        #expect(found.unusable[0].error as? DarkroomError == .io(path: folder.path("nope.jpg"), detail: "no such file or directory"))
    }

    @Test("a missing input, or one under a file, is named with the reason")
    func missingInputs() throws {
        let folder = try TemporaryDirectory()
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder.path("plain.jpg")))
        for missing in [folder.path("nope.jpg"), folder.path("plain.jpg/inside.jpg")] {
            #expect(throws: DarkroomError.io(path: missing, detail: "no such file or directory")) {
                try BatchInput.expand([missing])
            }
        }
    }
}
