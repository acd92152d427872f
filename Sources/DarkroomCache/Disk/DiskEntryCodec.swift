import Crypto
import DarkroomCore
import FoundationEssentials

// MARK: - DiskEntryCodec

/// Encodes and verifies entry files (the format is documented on ``DiskCache``).
///
/// All integers are little-endian. The trailing SHA-256 covers the header before it *and*
/// the payload, so a flipped bit anywhere — metadata or image bytes — fails verification.
enum DiskEntryCodec {
    static let magic: [UInt8] = Array("DRKC".utf8)
    static let formatVersion: UInt16 = 1
    /// magic 4 + version 2 + header length 4 + payload length 8 + created 8 + field count 2.
    static let fixedPrefixLength = 28
    static let digestLength = 32
    static let maximumHeaderLength = 1 << 20

    /// Metadata field tags. Readers skip tags they do not know.
    enum Tag: UInt8 {
        case key = 1
        case format = 2
        case contentType = 3
        case etag = 4
        case lastModified = 5
        case maxAge = 6
        case flattenedFrames = 7
    }

    /// Why a file failed verification (it is then deleted and counted as a miss).
    struct Corruption: Error, Sendable, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    // MARK: - Encoding

    /// The header of an entry file; the payload (`entry.bytes`) follows it directly.
    static func header(for entry: DiskCacheEntry, keyText: String) -> [UInt8] {
        var fields: [(Tag, String)] = [(.key, keyText)]
        if let format = entry.format { fields.append((.format, format.rawValue)) }
        if let contentType = entry.contentType { fields.append((.contentType, contentType)) }
        if let etag = entry.etag { fields.append((.etag, etag)) }
        if let lastModified = entry.lastModified { fields.append((.lastModified, lastModified)) }
        if let maxAge = entry.maxAge { fields.append((.maxAge, String(maxAge))) }
        if let frames = entry.flattenedFrames { fields.append((.flattenedFrames, String(frames))) }

        var body: [UInt8] = []
        for (tag, text) in fields {
            let utf8 = Array(text.utf8)
            body.append(tag.rawValue)
            append(UInt32(utf8.count), to: &body)
            body += utf8
        }
        let headerLength = fixedPrefixLength + body.count + digestLength

        var header = magic
        header.reserveCapacity(headerLength)
        append(formatVersion, to: &header)
        append(UInt32(headerLength), to: &header)
        append(UInt64(entry.bytes.count), to: &header)
        append(entry.created.timeIntervalSinceReferenceDate.bitPattern, to: &header)
        append(UInt16(fields.count), to: &header)
        header += body

        var hasher = SHA256()
        hasher.update(data: header)
        hasher.update(data: entry.bytes)
        header += Array(hasher.finalize())
        return header
    }

    // MARK: - Reading and verifying

    /// Reads and verifies the entry file open at `descriptor` (of `fileSize` bytes), which
    /// must record `expectedKey`.
    static func read(_ descriptor: Int32, fileSize: Int, expectedKey: String) -> Result<DiskCacheEntry, Corruption> {
        guard fileSize >= fixedPrefixLength + digestLength else {
            return .failure(Corruption(reason: "file of \(fileSize) bytes is shorter than any header"))
        }
        guard let prefix = DiskFiles.read(descriptor, count: fixedPrefixLength, at: 0) else {
            return .failure(Corruption(reason: "short read of the header"))
        }
        guard Array(prefix[0..<4]) == magic else { return .failure(Corruption(reason: "wrong magic")) }
        let version: UInt16 = load(prefix, at: 4)
        guard version == formatVersion else {
            return .failure(Corruption(reason: "unknown format version \(version)"))
        }
        let headerLength = Int(load(prefix, at: 6) as UInt32)
        let payloadLength64: UInt64 = load(prefix, at: 10)
        guard headerLength >= fixedPrefixLength + digestLength, headerLength <= maximumHeaderLength,
            payloadLength64 <= UInt64(Int.max - headerLength),
            headerLength + Int(payloadLength64) == fileSize
        else {
            return .failure(Corruption(reason: "lengths do not add up to the file size \(fileSize)"))
        }
        let payloadLength = Int(payloadLength64)
        guard let header = DiskFiles.read(descriptor, count: headerLength, at: 0),
            let payload = DiskFiles.read(descriptor, count: payloadLength, at: headerLength)
        else {
            return .failure(Corruption(reason: "short read"))
        }

        var hasher = SHA256()
        let digestStart = headerLength - digestLength
        header.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<digestStart])) }
        hasher.update(data: payload)
        guard Array(hasher.finalize()) == Array(header[digestStart...]) else {
            return .failure(Corruption(reason: "SHA-256 mismatch"))
        }

        let created = Date(timeIntervalSinceReferenceDate: Double(bitPattern: load(prefix, at: 18)))
        let fieldCount = Int(load(prefix, at: 26) as UInt16)
        return parseFields(header, count: fieldCount, end: digestStart).flatMap { fields in
            entry(from: fields, payload: payload, created: created, expectedKey: expectedKey)
        }
    }

    private static func parseFields(_ header: [UInt8], count: Int, end: Int) -> Result<[UInt8: String], Corruption> {
        var fields: [UInt8: String] = [:]
        var offset = fixedPrefixLength
        for _ in 0..<count {
            guard offset + 5 <= end else { return .failure(Corruption(reason: "metadata field past the header")) }
            let tag = header[offset]
            let length = Int(load(header, at: offset + 1) as UInt32)
            offset += 5
            guard length <= end - offset else { return .failure(Corruption(reason: "metadata field past the header")) }
            guard fields[tag] == nil else { return .failure(Corruption(reason: "metadata field \(tag) repeated")) }
            guard let text = String(validating: header[offset..<(offset + length)], as: UTF8.self) else {
                return .failure(Corruption(reason: "metadata field \(tag) is not UTF-8"))
            }
            fields[tag] = text
            offset += length
        }
        guard offset == end else { return .failure(Corruption(reason: "metadata does not fill the header")) }
        return .success(fields)
    }

    private static func entry(
        from fields: [UInt8: String], payload: [UInt8], created: Date, expectedKey: String
    ) -> Result<DiskCacheEntry, Corruption> {
        guard let key = fields[Tag.key.rawValue] else { return .failure(Corruption(reason: "no key field")) }
        guard key == expectedKey else { return .failure(Corruption(reason: "entry holds another key")) }
        var entry = DiskCacheEntry(bytes: payload, created: created)
        if let format = fields[Tag.format.rawValue] {
            guard let known = ImageFormat(rawValue: format) else {
                return .failure(Corruption(reason: "unknown image format '\(format)'"))
            }
            entry.format = known
        }
        entry.contentType = fields[Tag.contentType.rawValue]
        entry.etag = fields[Tag.etag.rawValue]
        entry.lastModified = fields[Tag.lastModified.rawValue]
        if let maxAge = fields[Tag.maxAge.rawValue] {
            guard let seconds = Int(maxAge) else { return .failure(Corruption(reason: "max-age '\(maxAge)' is not a number")) }
            entry.maxAge = seconds
        }
        if let frames = fields[Tag.flattenedFrames.rawValue] {
            guard let count = Int(frames), count > 1 else {
                return .failure(Corruption(reason: "flattened frame count '\(frames)' is not a number above 1"))
            }
            entry.flattenedFrames = count
        }
        return .success(entry)
    }

    // MARK: - Little-endian integers

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func load<T: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int) -> T {
        var value = T.zero
        for index in (0..<MemoryLayout<T>.size).reversed() {
            value = value << 8 | T(bytes[offset + index])
        }
        return value
    }
}
