@testable import DarkroomCache
import DarkroomCore

// MARK: - Images that say what they are

/// Test images for the memory cache: `width × 1` pixels (cost `4 * width`), every pixel
/// carrying the same 4 bytes — a 16-bit key and a 16-bit version — so a read-back image
/// tells which entry it was stored as, and a torn or mixed-up buffer shows.
enum MemoryTestImages {
    /// An image of exactly `bytes` bytes (a multiple of 4) tagged with `key` and `version`.
    static func image(bytes: Int, key: Int = 0, version: Int = 0) -> Image {
        precondition(bytes > 0 && bytes % 4 == 0)
        return image(width: bytes / 4, key: key, version: version)
    }

    static func image(width: Int, key: Int, version: Int = 0) -> Image {
        let tag: [UInt8] = [UInt8(key & 0xFF), UInt8(key >> 8 & 0xFF), UInt8(version & 0xFF), UInt8(version >> 8 & 0xFF)]
        return Image(width: width, height: 1) { buffer in
            for i in 0..<buffer.count { buffer[i] = tag[i & 3] }
        }
    }

    /// The key and version an image was made with, or `nil` if its pixels disagree.
    static func tag(of image: Image) -> (key: Int, version: Int)? {
        let p = image.pixels
        guard image.height == 1, p.count == image.width * 4 else { return nil }
        for i in 4..<p.count where p[i] != p[i & 3] { return nil }
        return (Int(p[0]) | Int(p[1]) << 8, Int(p[2]) | Int(p[3]) << 8)
    }
}

// MARK: - Reference model

/// The purge policy written the slow, obvious way (an array in recency order), to check
/// the O(1) cache against after every operation.
struct ReferenceLRUCache {
    let capacity: Int
    let target: Int
    /// Most recently accessed first.
    private(set) var entries: [(key: String, cost: Int)] = []
    private(set) var evictions = 0

    init(capacity: Int, target: Int) {
        self.capacity = capacity
        self.target = target
    }

    var usage: Int { entries.reduce(0) { $0 + $1.cost } }
    var keys: [String] { entries.map(\.key) }

    mutating func add(_ key: String, cost: Int) {
        remove(key)
        guard cost <= capacity else { return }
        entries.insert((key, cost), at: 0)
        guard usage > capacity else { return }
        while usage > target, entries.count > 1 {
            entries.removeLast()
            evictions += 1
        }
    }

    mutating func read(_ key: String) -> Bool {
        guard let i = entries.firstIndex(where: { $0.key == key }) else { return false }
        entries.insert(entries.remove(at: i), at: 0)
        return true
    }

    @discardableResult
    mutating func remove(_ key: String) -> Bool {
        guard let i = entries.firstIndex(where: { $0.key == key }) else { return false }
        entries.remove(at: i)
        return true
    }
}
