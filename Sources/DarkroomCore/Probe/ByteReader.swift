// MARK: - ByteReader

/// Bounds-checked big/little-endian reads over a byte buffer, for header parsers.
/// Every read returns `nil` past the end instead of trapping. Public for decoder modules
/// that parse their format's structure in Swift (``ByteReader`` never copies the bytes).
///
/// ```swift
/// let width = ByteReader(raw).u32le(18)   // nil when the data is shorter
/// ```
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    public var count: Int { bytes.count }

    public func u8(_ at: Int) -> Int? {
        guard at >= 0, at < bytes.count else { return nil }
        return Int(bytes[at])
    }

    public func u16be(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    public func u16le(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }

    public func u24le(_ at: Int) -> Int? {
        guard at >= 0, at + 3 <= bytes.count else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
    }

    public func u32be(_ at: Int) -> Int? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }

    public func u32le(_ at: Int) -> Int? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }

    /// A big-endian 64-bit value; `nil` past the end or at 2⁶³ and above (no `Int` holds it).
    public func u64be(_ at: Int) -> Int? {
        guard let hi = u32be(at), let lo = u32be(at + 4), hi < 0x8000_0000 else { return nil }
        return hi << 32 | lo
    }

    /// Four ASCII bytes as a string (chunk and box types).
    public func fourCC(_ at: Int) -> String? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return String(decoding: bytes[at..<at + 4], as: UTF8.self)
    }

    public func slice(_ at: Int, _ length: Int) -> UnsafeRawBufferPointer? {
        guard at >= 0, length >= 0, at + length <= bytes.count else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[at..<at + length])
    }

    public func starts(with prefix: String, at: Int) -> Bool {
        let utf8 = Array(prefix.utf8)
        guard at >= 0, at + utf8.count <= bytes.count else { return false }
        for (i, b) in utf8.enumerated() where bytes[at + i] != b { return false }
        return true
    }
}
