// MARK: - ByteReader

/// Bounds-checked big/little-endian reads over a byte buffer, for header parsers.
/// Every read returns `nil` past the end instead of trapping. Public for decoder modules
/// that parse their format's structure in Swift (``ByteReader`` never copies the bytes).
///
/// ```swift
/// let width = ByteReader(raw).u32le(18)   // nil when the data is shorter
/// ```
public struct ByteReader {
    /// The buffer read from; the reader neither owns nor copies it, so it must outlive the reader.
    public let bytes: UnsafeRawBufferPointer

    /// Wraps `bytes` without copying them.
    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The number of bytes in the buffer.
    public var count: Int { bytes.count }

    /// Whether `length` bytes at offset `at` lie inside the buffer, for any `at` a file's
    /// fields may give: the comparison cannot overflow, even at `Int.max` (a BigTIFF offset of
    /// 2⁶³−1 trapped in `at + 4`, found by `fuzz-decode-tiff`).
    @inline(__always)
    func fits(_ at: Int, _ length: Int) -> Bool {
        at >= 0 && at <= bytes.count && length <= bytes.count - at
    }

    /// The byte at offset `at`; `nil` outside the buffer.
    public func u8(_ at: Int) -> Int? {
        guard at >= 0, at < bytes.count else { return nil }
        return Int(bytes[at])
    }

    /// The big-endian 16-bit value at offset `at`; `nil` when it does not lie inside the buffer.
    public func u16be(_ at: Int) -> Int? {
        guard fits(at, 2) else { return nil }
        return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    /// The little-endian 16-bit value at offset `at`; `nil` when it does not lie inside the buffer.
    public func u16le(_ at: Int) -> Int? {
        guard fits(at, 2) else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }

    /// The little-endian 24-bit value at offset `at`; `nil` when it does not lie inside the buffer.
    public func u24le(_ at: Int) -> Int? {
        guard fits(at, 3) else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
    }

    /// The big-endian 32-bit value at offset `at`; `nil` when it does not lie inside the buffer.
    public func u32be(_ at: Int) -> Int? {
        guard fits(at, 4) else { return nil }
        return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }

    /// The little-endian 32-bit value at offset `at`; `nil` when it does not lie inside the buffer.
    public func u32le(_ at: Int) -> Int? {
        guard fits(at, 4) else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }

    /// A big-endian 64-bit value; `nil` past the end or at 2⁶³ and above (no `Int` holds it).
    public func u64be(_ at: Int) -> Int? {
        guard fits(at, 8), let hi = u32be(at), let lo = u32be(at + 4), hi < 0x8000_0000 else { return nil }
        return hi << 32 | lo
    }

    /// Four ASCII bytes as a string (chunk and box types).
    public func fourCC(_ at: Int) -> String? {
        guard fits(at, 4) else { return nil }
        return String(decoding: bytes[at..<at + 4], as: UTF8.self)
    }

    /// The `length` bytes at offset `at`, without copying; `nil` when they do not all lie inside
    /// the buffer.
    public func slice(_ at: Int, _ length: Int) -> UnsafeRawBufferPointer? {
        guard length >= 0, fits(at, length) else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[at..<at + length])
    }

    /// Whether the bytes at offset `at` are the UTF-8 bytes of `prefix`; `false` when they would run
    /// past the end.
    public func starts(with prefix: String, at: Int) -> Bool {
        let utf8 = Array(prefix.utf8)
        guard fits(at, utf8.count) else { return false }
        for (i, b) in utf8.enumerated() where bytes[at + i] != b { return false }
        return true
    }
}
