import Crypto
import Darkroom

// MARK: - MemcachedEntry

/// How a render is laid out in a memcached item, so that every read is verified: a value
/// written under another key, cut short, not written by Darkroom, or written before its
/// source was purged is a miss, never served.
///
/// `DRM2` · SHA-256 of the key text (32) · SHA-256 of the bytes (32) · the source's generation
/// (16) · format length (1) · format name · the encoded bytes.
///
/// The generation is the value of the source's generation item when the entry was stored
/// (``MemcachedCache`` reads both in one request): a purge replaces the generation, so every
/// entry stored before it stops matching at once, on every server, without listing keys.
enum MemcachedEntry {
    static let magic: [UInt8] = Array("DRM2".utf8)
    static let generationLength = 16

    static func encode(_ image: CachedImage, key: CacheKey, generation: [UInt8]) -> [UInt8] {
        precondition(generation.count == generationLength)
        let format = Array(image.format.rawValue.utf8)
        var value = magic
        value.reserveCapacity(magic.count + 65 + generationLength + format.count + image.bytes.count)
        value += digest(Array(key.string.utf8))
        value += digest(image.bytes)
        value += generation
        value.append(UInt8(format.count))
        value += format
        value += image.bytes
        return value
    }

    /// The image, or `nil` when the value is not one written for `key` under `generation`, or
    /// is damaged.
    static func decode(_ value: UnsafeRawBufferPointer, key: CacheKey, generation: [UInt8]) -> CachedImage? {
        let digests = magic.count
        let header = digests + 64 + generationLength + 1
        guard value.count > header, Array(value[0..<magic.count]) == magic else { return nil }
        guard Array(value[digests..<(digests + 32)]) == digest(Array(key.string.utf8)) else { return nil }
        guard Array(value[(digests + 64)..<(header - 1)]) == generation else { return nil }
        let formatLength = Int(value[header - 1])
        guard value.count >= header + formatLength,
            let format = ImageFormat(rawValue: String(decoding: value[header..<(header + formatLength)], as: UTF8.self))
        else { return nil }
        let bytes = Array(value[(header + formatLength)...])
        guard Array(value[(digests + 32)..<(digests + 64)]) == digest(bytes) else { return nil }
        return CachedImage(bytes: bytes, format: format)
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }
}
