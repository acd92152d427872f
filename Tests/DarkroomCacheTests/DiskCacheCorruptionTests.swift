import DarkroomCache
import DiskCacheWorkload
import Foundation
import Testing

// MARK: - Corrupt entries

@Suite("Damaged disk cache entries are misses and are deleted, never served")
struct DiskCacheCorruptionTests {
    /// Ways an entry file can be damaged (bit rot, a foreign writer, a bug elsewhere).
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case flippedPayloadByte, flippedMetadataByte, flippedDigestByte, truncatedByOneByte, truncatedInsideHeader
        case empty, wrongMagic, wrongVersion, wrongPayloadLength, wrongHeaderLength, extraTrailingByte
        case entryOfAnotherKey

        var testDescription: String { rawValue }
    }

    @Test("a damaged entry is a miss, its file is deleted and the miss is counted", arguments: Damage.allCases)
    func damaged(_ damage: Damage) throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        let key = CacheKey(source: "s", variant: "v")
        let other = CacheKey(source: "s", variant: "w")
        let entry = DiskCacheEntry(bytes: DiskWorkload.payload(3, minSize: 4000, maxSize: 4000), format: .webp, etag: "\"e\"")
        try cache.store(entry, for: key)
        try cache.store(entry, for: other)
        let path = cache.entryPath(for: key)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let headerLength = Int(bytes[6]) | Int(bytes[7]) << 8 | Int(bytes[8]) << 16 | Int(bytes[9]) << 24

        switch damage {
        case .flippedPayloadByte: bytes[headerLength + 1234] ^= 0x01
        case .flippedMetadataByte: bytes[headerLength - 40] ^= 0x20
        case .flippedDigestByte: bytes[headerLength - 1] ^= 0x80
        case .truncatedByOneByte: bytes.removeLast()
        case .truncatedInsideHeader: bytes.removeLast(bytes.count - 20)
        case .empty: bytes = []
        case .wrongMagic: bytes[0] = UInt8(ascii: "X")
        case .wrongVersion: bytes[4] = 2
        case .wrongPayloadLength: bytes[10] &+= 1
        case .wrongHeaderLength: bytes[6] &+= 1
        case .extraTrailingByte: bytes.append(0)
        case .entryOfAnotherKey: bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cache.entryPath(for: other))))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let before = cache.statistics
        #expect(cache.entry(for: key) == nil)
        #expect(!DiskTestFolder.exists(path))
        #expect(cache.statistics.misses == before.misses + 1)
        #expect(cache.statistics.hits == before.hits)
        // The undamaged neighbour is untouched.
        #expect(cache.entry(for: other) == entry)
    }

    @Test("an intact file is the control: the same checks accept it")
    func intact() throws {
        let folder = try DiskTestFolder()
        let cache = try DiskCache(directory: folder.path)
        let key = CacheKey(source: "s", variant: "v")
        let entry = DiskCacheEntry(bytes: DiskWorkload.payload(3, minSize: 4000, maxSize: 4000), format: .webp)
        try cache.store(entry, for: key)
        let path = cache.entryPath(for: key)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.write(to: URL(fileURLWithPath: path))  // rewritten byte for byte
        #expect(cache.entry(for: key) == entry)
        #expect(DiskTestFolder.exists(path))
    }
}
