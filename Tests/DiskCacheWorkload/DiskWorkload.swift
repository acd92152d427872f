import DarkroomCache
import DarkroomCore

// MARK: - Payloads derivable from their key

/// Keys and payloads shared by the disk cache tests and the `DiskCacheWorker` child process,
/// so a test can check that whatever reads back for key `i` is exactly what any process wrote.
public enum DiskWorkload {
    public static func key(_ index: Int) -> CacheKey {
        CacheKey(source: "worker/source-\(index % 5)", variant: "item-\(index)")
    }

    /// `size` pseudo-random bytes from SplitMix64 seeded by `index`, `size` spread over
    /// `minSize...maxSize` by `index`.
    public static func payload(_ index: Int, minSize: Int, maxSize: Int) -> [UInt8] {
        let size = minSize + Int(UInt64(index) &* 2_654_435_761 % UInt64(maxSize - minSize + 1))
        var bytes = [UInt8](repeating: 0, count: size + 8)
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
        bytes.withUnsafeMutableBytes { raw in
            for offset in stride(from: 0, to: size, by: 8) {
                state &+= 0x9E37_79B9_7F4A_7C15
                var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                raw.storeBytes(of: (mixed ^ (mixed >> 31)).littleEndian, toByteOffset: offset, as: UInt64.self)
            }
        }
        return Array(bytes[0..<size])
    }

    public static func entry(_ index: Int, minSize: Int, maxSize: Int) -> DiskCacheEntry {
        DiskCacheEntry(bytes: payload(index, minSize: minSize, maxSize: maxSize), format: .png, etag: "\"\(index)\"")
    }

    /// Whether `entry` is exactly what is written for key `index` (any creation date).
    public static func matches(_ entry: DiskCacheEntry, _ index: Int, minSize: Int, maxSize: Int) -> Bool {
        var expected = self.entry(index, minSize: minSize, maxSize: maxSize)
        expected.created = entry.created
        return entry == expected
    }
}
