import Darkroom

// MARK: - DataURLSource

/// A source kind of your own: `data:` URLs (RFC 2397), the image inside the location itself —
/// `data:image/png;base64,iVBORw0…`. Registered as the `data-url` kind and selected in
/// `filters.d/`:
///
/// ```toml
/// [sources.inline]
/// type = "data-url"
/// max-bytes = "1MB"      # the largest decoded payload accepted (default 1MB)
/// ```
///
/// The key is a digest of the whole location (two equal URLs share renders and cache entries;
/// a URL is never stored in a key as a whole, however long). There is no fingerprint: the
/// content cannot change under its key.
public struct DataURLSource: ImageSource {
    public static let scheme = "data:"
    public let name = "data-url"
    /// The largest decoded payload accepted, in bytes.
    public let maxBytes: Int

    public init(maxBytes: Int = 1 << 20) {
        self.maxBytes = maxBytes
    }

    /// Registers the `data-url` kind: one optional key, `max-bytes` (a size such as `"1MB"`).
    public static func register(in registry: inout Registry) {
        registry.register(sourceKind: "data-url", keys: ["max-bytes"], summary: "data: URLs (RFC 2397)", origin: "DataURLSource") { table in
            let maxBytes = try table.size("max-bytes") ?? 1 << 20
            guard maxBytes > 0 else { throw table.error("max-bytes", "must be more than 0 bytes") }
            return DataURLSource(maxBytes: maxBytes)
        }
    }

    public func canLoad(_ location: String) -> Bool { location.lowercased().hasPrefix(Self.scheme) }

    public func key(for location: String) throws -> String {
        _ = try payload(of: location)  // refuse what load would refuse, before any cache lookup
        return "data:fnv1a64=\(Self.digest(location));length=\(location.utf8.count)"
    }

    public func load(_ location: String) async throws -> SourceData {
        let (mediaType, encoded, isBase64) = try payload(of: location)
        let bytes = try isBase64 ? Base64.decode(encoded, maxBytes: maxBytes) : PercentDecoding.decode(encoded, maxBytes: maxBytes)
        return SourceData(key: try key(for: location), bytes: bytes, contentType: mediaType)
    }

    // MARK: - Parsing

    /// `data:[<media type>][;base64],<data>` split into its parts.
    private func payload(of location: String) throws -> (mediaType: String?, data: Substring, isBase64: Bool) {
        guard canLoad(location), let comma = location.firstIndex(of: ",") else {
            throw DarkroomError.invalidArgument(
                name: "location", value: Self.shortened(location), expected: "data:[<media type>][;base64],<data>")
        }
        let header = location[location.index(location.startIndex, offsetBy: Self.scheme.count)..<comma]
        var parameters = header.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let isBase64 = parameters.last?.lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        let mediaType = parameters.first.flatMap { $0.isEmpty ? nil : $0 }
        return (mediaType, location[location.index(after: comma)...], isBase64)
    }

    /// The location as error messages show it: at most 48 characters.
    static func shortened(_ location: String) -> String {
        location.count <= 48 ? location : String(location.prefix(45)) + "…"
    }

    /// 64-bit FNV-1a of the location's UTF-8 bytes, in hex.
    static func digest(_ location: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in location.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
