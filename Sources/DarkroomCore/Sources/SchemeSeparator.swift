// MARK: - Scheme separator

/// Finding the `://` that ends a URL's scheme (`https://…`, `s3://…`) in a location, by a scan
/// of its UTF-8 bytes: `firstRange(of:)`'s general substring search, and a generic
/// `StringProtocol` scan, each cost a few per cent of a server's memory hit, which asks this
/// three times.
enum SchemeSeparator {
    /// The byte offset of the first `://` in `bytes`.
    static func offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 3 else { return nil }
        var index = 0
        let last = bytes.count - 3
        while index <= last {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The byte offset of the first `://` in `utf8`, from its contiguous storage when it has
    /// one (a native string), else from a copy.
    static func offset<View: Collection<UInt8>>(in utf8: View) -> Int? {
        if let found = utf8.withContiguousStorageIfAvailable({ offset(in: $0) }) { return found }
        return Array(utf8).withUnsafeBufferPointer { offset(in: $0) }
    }
}

extension String {
    /// Where the first `://` of a location is, as a URL's scheme ends; `nil` for a plain path.
    ///
    /// ```swift
    /// "s3://bucket/a.jpg".schemeSeparatorRange   // the "://" after "s3"
    /// "photos/a.jpg".schemeSeparatorRange        // nil
    /// ```
    public var schemeSeparatorRange: Range<String.Index>? { self[...].schemeSeparatorRange }

    /// Whether the location has a scheme (`://`) rather than being a plain path.
    public var hasSchemeSeparator: Bool { self[...].hasSchemeSeparator }
}

extension Substring {
    /// Where the first `://` of a location is, as a URL's scheme ends; `nil` for a plain path.
    ///
    /// ```swift
    /// "x s3://b/a.jpg".dropFirst(2).schemeSeparatorRange   // the "://" after "s3"
    /// ```
    public var schemeSeparatorRange: Range<String.Index>? {
        guard let offset = SchemeSeparator.offset(in: utf8) else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        return start..<utf8.index(start, offsetBy: 3)
    }

    /// Whether the location has a scheme (`://`) rather than being a plain path.
    public var hasSchemeSeparator: Bool { SchemeSeparator.offset(in: utf8) != nil }
}
