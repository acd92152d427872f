import DarkroomCache
import DiskCacheWorkload
import DarkroomCore
import Foundation
import Testing

// MARK: - Round trips

@Suite("Disk cache entries read back exactly as stored, with their metadata")
struct DiskCacheRoundTripTests {
    @Test("bytes, format, HTTP metadata and the creation date survive a round trip")
    func roundTrip() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        let key = CacheKey.original(source: "https://127.0.0.1/cat.jpg")
        let created = Date(timeIntervalSinceReferenceDate: 700_000_000.123_456_7)
        let entry = DiskCacheEntry(
            bytes: DiskWorkload.payload(1, minSize: 5000, maxSize: 5000), format: .jpeg, contentType: "image/jpeg",
            etag: "\"abc-é\"", lastModified: "Tue, 15 Nov 1994 12:45:26 GMT", maxAge: 3600, created: created)
        try cache.store(entry, for: key)
        #expect(cache.entry(for: key) == entry)
    }

    @Test("an empty payload without metadata round-trips too")
    func emptyPayload() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        let key = CacheKey(source: "s", variant: "v")
        let entry = DiskCacheEntry(bytes: [])
        try cache.store(entry, for: key)
        #expect(cache.entry(for: key) == entry)
    }

    @Test("storing again replaces the entry; other variants of the source are separate")
    func replaceAndSeparate() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        let small = CacheKey(source: "s", variant: "small"), large = CacheKey(source: "s", variant: "large")
        try cache.store(DiskCacheEntry(bytes: [1, 2, 3], format: .png), for: small)
        try cache.store(DiskCacheEntry(bytes: [4, 5], format: .webp), for: small)
        #expect(cache.entry(for: small)?.bytes == [4, 5])
        #expect(cache.entry(for: small)?.format == .webp)
        #expect(cache.entry(for: large) == nil)
        #expect(folder.entryFiles.count == 1)
        #expect(folder.temporaryItems.isEmpty)
    }

    @Test("entries live at v1/<digest prefix>/<source digest>/<persistent name>.entry beside a source file")
    func layout() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        let key = CacheKey(source: "/photos/cat.jpg", variant: "thumb")
        try cache.store(DiskCacheEntry(bytes: [9]), for: key)
        let digest = key.sourceDigest
        let group = folder.path + "/v1/" + digest.prefix(2) + "/" + digest
        #expect(cache.entryPath(for: key) == group + "/" + key.persistentName + ".entry")
        #expect(DiskTestFolder.exists(cache.entryPath(for: key)))
        let source = try String(contentsOfFile: group + "/source", encoding: .utf8)
        #expect(source == "v\(CacheKey.currentSalt)|/photos/cat.jpg")
        let header = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cache.entryPath(for: key))).prefix(4))
        #expect(header == Array("DRKC".utf8))
    }

    @Test("removing an entry makes it a miss and reports whether there was one")
    func remove() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        let key = CacheKey(source: "s", variant: "v")
        try cache.store(DiskCacheEntry(bytes: [1]), for: key)
        #expect(cache.remove(key))
        #expect(!cache.remove(key))
        #expect(cache.entry(for: key) == nil)
    }

    @Test("as a KeyValueCache, plain string keys are stored, read, removed and cleared")
    func imageCacheConformance() throws {
        let folder = try DiskTestFolder()
        let disk = try DiskCache(directory: folder.path)
        let cache: any KeyValueCache<DiskCacheEntry> = disk
        let entry = DiskCacheEntry(bytes: [7, 7, 7], format: .gif)
        cache.insert(entry, forKey: "v1|a|b")
        cache.insert(entry, forKey: "other")
        #expect(cache.value(forKey: "v1|a|b") == entry)
        // A string key is opaque: it is not the CacheKey whose text it happens to equal.
        #expect(disk.entry(for: CacheKey(source: "a", variant: "b")) == nil)
        #expect(disk.removeAll(forSource: "a") == 0)
        cache.removeValue(forKey: "v1|a|b")
        #expect(cache.value(forKey: "v1|a|b") == nil)
        #expect(cache.value(forKey: "other") == entry)
        cache.removeAll()
        #expect(cache.value(forKey: "other") == nil)
    }

    @Test("a key too long for the header is refused with an I/O error and leaves nothing behind")
    func oversizedKey() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        let key = CacheKey(source: String(repeating: "s", count: 2 << 20), variant: "v")
        #expect(throws: DarkroomError.self) { try cache.store(DiskCacheEntry(bytes: [1]), for: key) }
        #expect(folder.entryFiles.isEmpty)
        #expect(folder.temporaryItems.isEmpty)
    }

    @Test("bad settings are rejected with the setting's name", arguments: [
        (limit: 0, target: 0.8, maxAge: nil), (limit: 100, target: 0, maxAge: nil),
        (limit: 100, target: 1.5, maxAge: nil), (limit: 100, target: 0.8, maxAge: -1),
    ] as [(limit: Int?, target: Double, maxAge: TimeInterval?)])
    func badSettings(setting: (limit: Int?, target: Double, maxAge: TimeInterval?)) throws {
        let folder = try DiskTestFolder()
        #expect {
            _ = try DiskCache(directory: folder.path, limit: setting.limit, sweepTarget: setting.target, maxAge: setting.maxAge)
        } throws: { error in
            guard case DarkroomError.invalidArgument(let name, _, _) = error else { return false }
            return ["limit", "sweepTarget", "maxAge"].contains(name)
        }
    }

    @Test("a folder that cannot be created is an I/O error naming it")
    func uncreatableFolder() throws {
        let folder = try DiskTestFolder()
        let blocker = folder.path + "/file"
        try Data([1]).write(to: URL(fileURLWithPath: blocker))
        #expect {
            _ = try DiskCache(directory: blocker + "/cache")
        } throws: { error in
            guard case DarkroomError.io(let path, _) = error else { return false }
            return path.hasPrefix(blocker)
        }
    }
}
