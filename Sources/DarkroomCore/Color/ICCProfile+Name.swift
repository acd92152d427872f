// MARK: - A profile's name

extension ICCProfile {
    /// The `desc` text of any ICC profile (`sRGB IEC61966-2.1`, `Adobe RGB (1998)`,
    /// `U.S. Web Coated (SWOP) v2`), whether or not Darkroom can apply it: Lab, multi-ink and
    /// device-link profiles have names too. `nil` when the profile is damaged or has no `desc`.
    ///
    /// ```swift
    /// let name = EmbeddedICCProfile.bytes(in: jpeg, format: .jpeg).flatMap(ICCProfile.name(of:))
    /// ```
    public static func name(of bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            guard let tag = tagTable(r)?["desc"], let text = text(r, at: tag.offset, size: tag.size) else { return nil }
            let trimmed = text.trimmingSpaces
            return trimmed.isEmpty ? nil : trimmed
        }
    }
}
