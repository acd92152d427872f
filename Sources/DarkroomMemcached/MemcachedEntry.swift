import Crypto
import Darkroom

// MARK: - MemcachedEntry

/// How a render is laid out in a memcached item, so that every read is verified: a value
/// written under another key, cut short, not written by Darkroom, or written before its
/// source was purged is a miss, never served.
///
/// `DRM3` · SHA-256 of the key text (32) · SHA-256 of the bytes (32) · the source's generation
/// (16) · format length (1) · format name · freshness · the encoded bytes.
///
/// The freshness is what the render's source said (``CachedImage/origin``), so that every
/// server revalidates a stale render alike: one byte, 0 for none, else 1 then max-age (8,
/// big-endian), stored-at (the 8 bytes of the `Double`), and the ETag and Last-Modified, each
/// as a 2-byte length and its UTF-8. The bytes' digest covers all of it.
///
/// The generation is the value of the source's generation item when the entry was stored
/// (``MemcachedCache`` reads both in one request): a purge replaces the generation, so every
/// entry stored before it stops matching at once, on every server, without listing keys.
enum MemcachedEntry {
    static let magic: [UInt8] = Array("DRM3".utf8)
    static let generationLength = 16

    static func encode(_ image: CachedImage, key: CacheKey, generation: [UInt8]) -> [UInt8] {
        precondition(generation.count == generationLength)
        let format = Array(image.format.rawValue.utf8)
        var value = magic
        value.reserveCapacity(magic.count + 65 + generationLength + format.count + image.bytes.count)
        value += digest(Array(key.string.utf8))
        let payload = freshness(of: image) + image.bytes
        value += digest(payload)
        value += generation
        value.append(UInt8(format.count))
        value += format
        value += payload
        return value
    }

    // MARK: - Freshness

    private static func freshness(of image: CachedImage) -> [UInt8] {
        guard let origin = image.origin, let maxAge = origin.maxAge, let storedAt = origin.storedAt else { return [0] }
        var out: [UInt8] = [1]
        out += withUnsafeBytes(of: UInt64(maxAge).bigEndian, Array.init)
        out += withUnsafeBytes(of: storedAt.bitPattern.bigEndian, Array.init)
        for text in [origin.etag ?? "", origin.lastModified ?? ""] {
            let utf8 = Array(text.utf8.prefix(Int(UInt16.max)))
            out += [UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)] + utf8
        }
        return out
    }

    /// The image of a verified payload: its freshness block, then the bytes.
    private static func image(_ payload: ArraySlice<UInt8>, format: ImageFormat) -> CachedImage? {
        var rest = payload
        guard let flag = rest.popFirst() else { return nil }
        guard flag == 1 else { return flag == 0 ? CachedImage(bytes: Array(rest), format: format) : nil }
        func number() -> UInt64? {
            guard rest.count >= 8 else { return nil }
            defer { rest = rest.dropFirst(8) }
            return rest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        }
        func text() -> String?? {
            guard rest.count >= 2 else { return nil }
            let length = Int(rest[rest.startIndex]) << 8 | Int(rest[rest.startIndex + 1])
            guard rest.count >= 2 + length else { return nil }
            defer { rest = rest.dropFirst(2 + length) }
            return length == 0 ? .some(nil) : String(decoding: rest.dropFirst(2).prefix(length), as: UTF8.self)
        }
        guard let maxAge = number(), maxAge <= UInt64(Int.max), let stored = number(), let etag = text(), let modified = text()
        else { return nil }
        return CachedImage(
            bytes: Array(rest), format: format, etag: etag, lastModified: modified, maxAge: Int(maxAge),
            storedAt: Double(bitPattern: stored))
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
        let payload = Array(value[(header + formatLength)...])
        guard Array(value[(digests + 32)..<(digests + 64)]) == digest(payload) else { return nil }
        return image(payload[...], format: format)
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }
}
