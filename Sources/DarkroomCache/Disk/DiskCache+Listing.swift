import DarkroomCore
// MARK: - Listing sources

extension DiskCache {
    /// The source groups in the folder with their entry counts and sizes, largest first —
    /// what `darkroom cache list` shows. Reads each group's `source` file; a file that is
    /// missing or does not hash to its folder's name leaves ``DiskCacheSourceSummary/source`` `nil`.
    public func sources() -> [DiskCacheSourceSummary] {
        scanGroups().map { group in
            var summary = DiskCacheSourceSummary(
                sourceDigest: group.digest, source: nil, salt: nil, entries: group.entries.count,
                bytes: group.entries.reduce(0) { $0 + $1.status.size })
            if let bytes = DiskFiles.readSmallFile(atPath: layout.sourcePath(digest: group.digest)),
                let text = String(validating: bytes, as: UTF8.self),
                CacheKey.sha256Hex(text) == group.digest,
                let parsed = DiskCache.parseSourceText(text) {
                summary.salt = parsed.salt
                summary.source = parsed.source
            }
            return summary
        }
        .sorted { ($0.bytes, $1.sourceDigest) > ($1.bytes, $0.sourceDigest) }
    }

    /// Splits `v<salt>|<source>`: the salt is all digits, so the first `|` ends it.
    static func parseSourceText(_ text: String) -> (salt: Int, source: String)? {
        guard text.hasPrefix("v"), let bar = text.firstIndex(of: "|"),
            let salt = Int(text[text.index(after: text.startIndex)..<bar])
        else { return nil }
        return (salt, String(text[text.index(after: bar)...]))
    }
}
