import Crypto
import DarkroomCore

// MARK: - CacheKey

/// The key of one cached render: the source key, the variant identifier (filter chain +
/// encoder settings) and a salt for Darkroom's pixel algorithms.
///
/// Editing a variant changes its identifier, so renders of the old definition are never
/// hit again; bumping the salt does the same for every render when Darkroom's pixels change.
/// Persistent names (file names, ETags) are SHA-256 digests — stable across processes and
/// machines, unlike Swift's randomly seeded `Hasher`.
///
/// ```swift
/// let key = CacheKey(source: "/photos/cat.jpg", variant: "aspect-fill(…)|circle>png(compression=6)")
/// key.string          // "v6|15:/photos/cat.jpg|aspect-fill(…)|circle>png(compression=6)"
/// key.persistentName  // 64 hex digits
/// ```
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The current salt: bump it when any change alters the pixels Darkroom produces.
    /// (2: PNG shrink-on-load reduces only by factors that divide both sides, and resizes of a
    /// JPEG decoded at a scale that does not divide it keep the full image's proportions.
    /// 3: `vignette` fades by its colour's alpha. 4: each variant decodes at its own
    /// shrink-on-load scale, not at the largest of the variants rendered with it; `aspect-fill`
    /// resamples only the region it keeps, whose pass order may round a level differently.
    /// 5: embedded ICC profiles are converted to sRGB when decoding. 6: CMYK JPEGs and
    /// lookup-table profiles are converted through their profile.)
    ///
    /// A computed property, not a `let`: default arguments that name a constant `let` are
    /// folded into weak copies in every client object file, and an incremental build that
    /// does not recompile one of them keeps the old salt (seen with `cache purge`).
    public static var currentSalt: Int { 6 }

    public var source: String
    /// The variant identifier, or `""` for the original source bytes.
    public var variant: String
    public var salt: Int

    public init(source: String, variant: String, salt: Int = CacheKey.currentSalt) {
        self.source = source
        self.variant = variant
        self.salt = salt
    }

    /// The key for a source's original bytes (no variant).
    public static func original(source: String, salt: Int = CacheKey.currentSalt) -> CacheKey {
        CacheKey(source: source, variant: "", salt: salt)
    }

    /// The canonical text: `v<salt>|<source byte count>:<source>|<variant>`. The length
    /// prefix keeps keys distinct even when a source contains `|`.
    public var string: String { "v\(salt)|\(source.utf8.count):\(source)|\(variant)" }

    /// SHA-256 of ``string``, lower-case hex: the name used on disk and in ETags.
    public var persistentName: String { CacheKey.sha256Hex(string) }

    /// SHA-256 of the source key alone: the folder all of a source's entries live under.
    public var sourceDigest: String { CacheKey.sha256Hex("v\(salt)|\(source)") }

    public var description: String { string }

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
