// MARK: - CacheKey

/// The key of one cached render: the source key, the variant identifier (filter chain +
/// encoder settings) and a salt for Darkroom's pixel algorithms.
///
/// Editing a variant changes its identifier, so renders of the old definition are never
/// hit again; bumping the salt does the same for every render when Darkroom's pixels change.
/// Persistent names (file names, ETags) are SHA-256 digests (`DarkroomCache` adds them) —
/// stable across processes and machines, unlike Swift's randomly seeded `Hasher`.
///
/// ``rendered(sourceKey:fingerprint:variant:)`` is the one rule for a render's key: the CLI,
/// the pipeline and the server all build keys through it, so they share every cache layer.
///
/// ```swift
/// let key = CacheKey(source: "/photos/cat.jpg", variant: "aspect-fill(…)|circle>png(compression=6)")
/// key.string          // "v6|15:/photos/cat.jpg|aspect-fill(…)|circle>png(compression=6)"
/// ```
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The current salt: bump it when any change alters the pixels Darkroom produces.
    /// (2: PNG shrink-on-load reduces only by factors that divide both sides, and resizes of a
    /// JPEG decoded at a scale that does not divide it keep the full image's proportions.
    /// 3: `vignette` fades by its colour's alpha. 4: each variant decodes at its own
    /// shrink-on-load scale, not at the largest of the variants rendered with it; `aspect-fill`
    /// resamples only the region it keeps, whose pass order may round a level differently.
    /// 5: embedded ICC profiles are converted to sRGB when decoding. 6: CMYK JPEGs and
    /// lookup-table profiles are converted through their profile.)
    ///
    /// A computed property, not a `let`: default arguments that name a constant `let` are
    /// folded into weak copies in every client object file, and an incremental build that
    /// does not recompile one of them keeps the old salt (seen with `cache purge`).
    public static var currentSalt: Int { 6 }

    /// The source's key, e.g. a file path or URL; purges by source match it.
    public var source: String
    /// The variant identifier, or `""` for the original source bytes.
    public var variant: String
    /// The version of Darkroom's pixel algorithms the render was made with (``currentSalt``
    /// unless the key is built for an older one): keys with different salts never match.
    public var salt: Int

    /// Builds the key of `variant` (`""` for the original bytes) of the source keyed `source`,
    /// under `salt` (the current one by default).
    public init(source: String, variant: String, salt: Int = CacheKey.currentSalt) {
        self.source = source
        self.variant = variant
        self.salt = salt
    }

    /// The key of a render: the source's key, and the variant identifier followed by `@` and
    /// the source's fingerprint when the source has one (a file's `stat`; an HTTP source has
    /// none, so its renders are reused until a layer evicts or expires them).
    ///
    /// ```swift
    /// CacheKey.rendered(sourceKey: "/srv/cat.jpg", fingerprint: "f:12:34", variant: "grayscale>png")
    /// // source "/srv/cat.jpg", variant "grayscale>png@f:12:34"
    /// ```
    public static func rendered(sourceKey: String, fingerprint: String?, variant identifier: String) -> CacheKey {
        CacheKey(source: sourceKey, variant: fingerprint.map { identifier + "@" + $0 } ?? identifier)
    }

    /// The key for a source's original bytes (no variant).
    public static func original(source: String, salt: Int = CacheKey.currentSalt) -> CacheKey {
        CacheKey(source: source, variant: "", salt: salt)
    }

    /// The canonical text: `v<salt>|<source byte count>:<source>|<variant>`. The length
    /// prefix keeps keys distinct even when a source contains `|`.
    public var string: String { "v\(salt)|\(source.utf8.count):\(source)|\(variant)" }

    public var description: String { string }
}
