import DarkroomCache
import DarkroomCore
import Foundation
import Testing

// MARK: - Claiming the cache folder

@Suite("The disk cache only takes a folder that is empty or already its own, so it never deletes other files")
struct DiskCacheFolderClaimTests {
    private static let signature = "Signature: 8a477f597d28d172789f06886806bc55"

    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private func read(_ path: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The error opening a cache in `folder` throws, or `nil` when it opens.
    private func openingError(_ folder: String) -> DarkroomError? {
        do {
            _ = try DiskCache(directory: folder)
            return nil
        } catch {
            return error as? DarkroomError
        }
    }

    @Test("a new folder is created and tagged with a CACHEDIR.TAG that names Darkroom")
    func newFolderIsTagged() throws {
        let parent = try DiskTestFolder()
        let folder = parent.path + "/a/b/cache"
        let cache = try DiskCache(directory: folder)
        let tag = try #require(read(folder + "/CACHEDIR.TAG"))
        #expect(tag.hasPrefix(Self.signature + "\n"))
        #expect(tag.contains("Darkroom"))
        try cache.store(DiskCacheEntry(bytes: [1, 2, 3]), for: CacheKey(source: "s", variant: "v"))
        // Reopened, it is recognised by its tag and keeps its entries.
        let reopened = try DiskCache(directory: folder)
        #expect(reopened.entry(for: CacheKey(source: "s", variant: "v"))?.bytes == [1, 2, 3])
    }

    @Test("a folder holding other files is refused, naming the folder and a foreign file, and nothing in it changes")
    func foreignFilesAreRefused() throws {
        let folder = try DiskTestFolder()
        try write("my notes", to: folder.path + "/notes.txt")
        try write("old", to: folder.path + "/tmp/draft.txt")
        let error = try #require(openingError(folder.path))
        guard case let .io(path, detail) = error else {
            Issue.record("expected an io error, got \(error)")
            return
        }
        #expect(path == folder.path)
        #expect(detail.contains("'notes.txt'"))
        #expect(detail.contains("CACHEDIR.TAG"))
        #expect(read(folder.path + "/notes.txt") == "my notes")
        #expect(read(folder.path + "/tmp/draft.txt") == "old")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["notes.txt", "tmp"])
    }

    @Test("a user's own tmp or v1 folder, even alone, is not mistaken for the cache's", arguments: [
        ("tmp/report.pdf", "tmp/report.pdf"), ("v1/photos", "v1/photos"), ("v1/AB", "v1/AB"),
    ])
    func foreignContentUnderOwnNames(file: String, named: String) throws {
        let folder = try DiskTestFolder()
        try write("mine", to: folder.path + "/" + file)
        let error = try #require(openingError(folder.path))
        #expect(error.description.contains("'\(named)'"))
        #expect(read(folder.path + "/" + file) == "mine")
    }

    @Test("another program's cache folder (a tag that does not name Darkroom) is refused")
    func otherProgramsTagIsRefused() throws {
        let folder = try DiskTestFolder()
        try write(Self.signature + "\n# created by some other tool\n", to: folder.path + "/CACHEDIR.TAG")
        let error = try #require(openingError(folder.path))
        #expect(error.description.contains("another program's cache folder"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["CACHEDIR.TAG"])
    }

    @Test("a cache folder made before tags (only the cache's own names) is claimed and keeps its entries")
    func untaggedOwnFolderIsClaimed() throws {
        let folder = try DiskTestFolder()
        let key = CacheKey(source: "/photos/a.jpg", variant: "thumb")
        do {
            let cache = try DiskCache(directory: folder.path)
            try cache.store(DiskCacheEntry(bytes: [9]), for: key)
            cache.flush()
        }
        try FileManager.default.removeItem(atPath: folder.path + "/CACHEDIR.TAG")
        try write("", to: folder.path + "/tmp/123-abc.tmp")  // a writer's leftover
        let cache = try DiskCache(directory: folder.path)
        #expect(cache.entry(for: key)?.bytes == [9])
        #expect(read(folder.path + "/CACHEDIR.TAG")?.contains("Darkroom") == true)
    }

    @Test("a tagged cache folder is used even when a stray file was added to it later")
    func taggedFolderWithStrayFile() throws {
        let folder = try DiskTestFolder()
        _ = try DiskCache(directory: folder.path)
        try write("x", to: folder.path + "/README")
        #expect(openingError(folder.path) == nil)
    }

    @Test("many caches opening one new folder at once all succeed")
    func concurrentFirstOpen() async throws {
        let parent = try DiskTestFolder()
        let folder = parent.path + "/shared"
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask { (try? DiskCache(directory: folder)) == nil ? 1 : 0 }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(read(folder + "/CACHEDIR.TAG")?.contains("Darkroom") == true)
    }
}
