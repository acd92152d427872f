import Crypto

// MARK: - EntityTag

/// A strong `ETag` for a response body, and the `If-None-Match` check against it.
///
/// The tag is the first 128 bits of the body's SHA-256, so it is the same for the same bytes
/// in every process and after every restart (renders are deterministic), and changes whenever
/// the bytes do — also when a remote source changed behind a cache.
///
/// ```swift
/// let tag = EntityTag(body: bytes)          // "\"5d41402abc4b2a76b9719d911017c592\""
/// tag.matches(ifNoneMatch: "W/\"5d41…\"")   // true: weak comparison, as RFC 9110 asks
/// ```
public struct EntityTag: Sendable, Equatable {
    /// The header value, quotes included.
    public let value: String

    /// The tag of `body`: the first 128 bits of its SHA-256 in lowercase hex, in quotes.
    public init(body: [UInt8]) {
        let digest = SHA256.hash(data: body)
        var hex = "\""
        for byte in digest.prefix(16) {
            hex.unicodeScalars.append(Self.digits[Int(byte >> 4)])
            hex.unicodeScalars.append(Self.digits[Int(byte & 0xF)])
        }
        self.value = hex + "\""
    }

    /// Whether an `If-None-Match` header value names this tag (or is `*`): the weak
    /// comparison RFC 9110 prescribes for it, over a comma-separated list.
    public func matches(ifNoneMatch header: String) -> Bool {
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingHeaderSpace
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == value[...] { return true }
        }
        return false
    }

    private static let digits: [Unicode.Scalar] = Array("0123456789abcdef".unicodeScalars)
}
