import Crypto
import Darkroom

// MARK: - MemcachedEntry

/// How a render is laid out in a memcached item, so that every read is verified: a value
/// written under another key, cut short, or not written by Darkroom is a miss, never served.
///
/// `DRM1` · SHA-256 of the key text (32) · SHA-256 of the bytes (32) · format length (1) ·
/// format name · the encoded bytes.
enum MemcachedEntry {
    static let magic: [UInt8] = Array("DRM1".utf8)

    static func encode(_ image: CachedImage, key: CacheKey) -> [UInt8] {
        let format = Array(image.format.rawValue.utf8)
        var value = magic
        value.reserveCapacity(magic.count + 65 + format.count + image.bytes.count)
        value += digest(Array(key.string.utf8))
        value += digest(image.bytes)
        value.append(UInt8(format.count))
        value += format
        value += image.bytes
        return value
    }

    /// The image, or `nil` when the value is not one written for `key` or is damaged.
    static func decode(_ value: UnsafeRawBufferPointer, key: CacheKey) -> CachedImage? {
        let header = magic.count + 65
        guard value.count > header, Array(value[0..<magic.count]) == magic else { return nil }
        guard Array(value[magic.count..<(magic.count + 32)]) == digest(Array(key.string.utf8)) else { return nil }
        let formatLength = Int(value[header - 1])
        guard value.count >= header + formatLength,
            let format = ImageFormat(rawValue: String(decoding: value[header..<(header + formatLength)], as: UTF8.self))
        else { return nil }
        let bytes = Array(value[(header + formatLength)...])
        guard Array(value[(magic.count + 32)..<(magic.count + 64)]) == digest(bytes) else { return nil }
        return CachedImage(bytes: bytes, format: format)
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }
}
