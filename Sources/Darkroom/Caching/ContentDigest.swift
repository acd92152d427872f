import Crypto
import DarkroomCore

// MARK: - ContentDigest

/// The digest of encoded bytes that a render carries through the caches: the first 128 bits
/// of their SHA-256, as 32 lowercase hexadecimal digits. The same bytes give the same digest in
/// every process and after every restart, so it can be a strong HTTP `ETag` (the server's is
/// this digest in quotes).
///
/// The pipeline computes it once, when it stores a render or copies a hit from a slower layer
/// into an immediate one, so a memory hit never hashes its bytes again.
///
/// ```swift
/// ContentDigest.of(Array("hello".utf8))   // "2cf24dba5fb0a30e26e83b2ac5b9e29e"
/// ```
public enum ContentDigest {
    /// The digest of `bytes`.
    public static func of(_ bytes: [UInt8]) -> String {
        let digest = SHA256.hash(data: bytes)
        var hex = ""
        hex.reserveCapacity(32)
        for byte in digest.prefix(16) {
            hex.unicodeScalars.append(digits[Int(byte >> 4)])
            hex.unicodeScalars.append(digits[Int(byte & 0xF)])
        }
        return hex
    }

    private static let digits: [Unicode.Scalar] = Array("0123456789abcdef".unicodeScalars)
}

extension CachedImage {
    /// This value with its ``CachedImage/digest`` computed, if it had none.
    func digested() -> CachedImage {
        digest == nil ? withDigest(ContentDigest.of(bytes)) : self
    }
}
