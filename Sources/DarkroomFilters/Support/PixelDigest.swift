import DarkroomCore

// MARK: - PixelDigest

/// A stable 64-bit FNV-1a digest of an image's width, height and pixels, as 16 lowercase hex
/// digits. Stable across processes and machines (unlike `Hasher`), so it can go into cache keys.
///
/// ```swift
/// PixelDigest.hex(of: logo) // e.g. "9c3a0e5b7f21d4c8"
/// ```
enum PixelDigest {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a over the width and height (each 8 bytes, little-endian), then every pixel byte.
    static func value(of image: Image) -> UInt64 {
        var hash = offsetBasis
        for dimension in [UInt64(image.width), UInt64(image.height)] {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash = (hash ^ ((dimension >> UInt64(shift)) & 0xff)) &* prime
            }
        }
        image.pixels.withUnsafeBufferPointer { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        }
        return hash
    }

    static func hex(of image: Image) -> String {
        let digits = String(value(of: image), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
