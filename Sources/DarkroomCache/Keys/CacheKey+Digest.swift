import Crypto
import DarkroomCore

// MARK: - CacheKey digests

/// The SHA-256 names of a ``CacheKey``: what disk entries, folders and ETags are named by.
///
/// ```swift
/// CacheKey(source: "/photos/cat.jpg", variant: "grayscale>png").persistentName  // 64 hex digits
/// ```
extension CacheKey {
    /// SHA-256 of `string`, lower-case hex: the name used on disk and in ETags.
    public var persistentName: String { CacheKey.sha256Hex(string) }

    /// SHA-256 of the source key alone: the folder all of a source's entries live under.
    public var sourceDigest: String { CacheKey.sha256Hex("v\(salt)|\(source)") }

    /// Lower-case hex SHA-256 of a string's UTF-8 bytes.
    public static func sha256Hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex(digest(UnsafeRawBufferPointer($0))) }
    }

    /// Lower-case hex SHA-256 of bytes.
    public static func sha256Hex(bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex(digest($0)) }
    }

    private static func digest(_ bytes: UnsafeRawBufferPointer) -> SHA256.Digest {
        var hasher = SHA256()
        hasher.update(bufferPointer: bytes)
        return hasher.finalize()
    }

    // MARK: - Hex

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The digest as 64 lower-case hex digits, written into the string's storage at once (a
    /// `String(radix:)` per byte made formatting cost more than hashing a key).
    private static func hex(_ digest: SHA256.Digest) -> String {
        String(unsafeUninitializedCapacity: SHA256.Digest.byteCount * 2) { text in
            var index = 0
            for byte in digest {
                text[index] = hexDigits[Int(byte >> 4)]
                text[index + 1] = hexDigits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }
}
