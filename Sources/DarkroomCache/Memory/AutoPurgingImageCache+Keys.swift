import DarkroomCore

// MARK: - Source-and-identifier keys

/// The request form of AlamofireImage's cache: an image is named by its source (the
/// request's URL there, Darkroom's source key here) and an optional additional identifier
/// (a variant, a filter chain). Both forms store under the identifier
/// `CacheKey(source:variant:).string` with the source recorded, so they agree with each
/// other, with the plain identifier API and with renderers that key ``ImageCache`` by
/// ``CacheKey/string``.
extension AutoPurgingImageCache {
    /// The identifier the request form stores `source` + `additional` under:
    /// `CacheKey(source: source, variant: additional ?? "").string`.
    ///
    /// ```swift
    /// AutoPurgingImageCache.identifier(for: "/cat.jpg", withIdentifier: "thumb")   // "v6|8:/cat.jpg|thumb"
    /// ```
    public static func identifier(for source: String, withIdentifier additional: String? = nil) -> String {
        CacheKey(source: source, variant: additional ?? "").string
    }

    // MARK: - Source and additional identifier

    /// Stores `image` as `source`'s variant `additional` (`nil`: the source's own image).
    ///
    /// ```swift
    /// cache.add(thumbnail, for: "/photos/cat.jpg", withIdentifier: "thumb-256")
    /// ```
    public func add(_ image: Image, for source: String, withIdentifier additional: String? = nil) {
        add(image, withIdentifier: Self.identifier(for: source, withIdentifier: additional), source: source)
    }

    /// `source`'s variant `additional`, now the most recently accessed; `nil` on a miss.
    ///
    /// ```swift
    /// cache.image(for: "/photos/cat.jpg", withIdentifier: "thumb-256")
    /// ```
    public func image(for source: String, withIdentifier additional: String? = nil) -> Image? {
        image(withIdentifier: Self.identifier(for: source, withIdentifier: additional))
    }

    /// Removes `source`'s variant `additional`.
    ///
    /// ```swift
    /// cache.removeImage(for: "/photos/cat.jpg", withIdentifier: "thumb-256")
    /// ```
    /// - Returns: whether it was there.
    @discardableResult
    public func removeImage(for source: String, withIdentifier additional: String? = nil) -> Bool {
        removeImage(withIdentifier: Self.identifier(for: source, withIdentifier: additional))
    }

    // MARK: - CacheKey

    /// Stores `image` under `key.string`, with `key.source` as its source.
    ///
    /// ```swift
    /// cache.add(rendered, forKey: CacheKey(source: "/photos/cat.jpg", variant: chain.identifier))
    /// ```
    public func add(_ image: Image, forKey key: CacheKey) {
        add(image, withIdentifier: key.string, source: key.source)
    }

    /// The image stored under `key.string`, now the most recently accessed; `nil` on a miss.
    ///
    /// ```swift
    /// cache.image(forKey: CacheKey(source: "/photos/cat.jpg", variant: chain.identifier))
    /// ```
    public func image(forKey key: CacheKey) -> Image? {
        image(withIdentifier: key.string)
    }

    /// Removes the image stored under `key.string`.
    ///
    /// ```swift
    /// cache.removeImage(forKey: key)
    /// ```
    /// - Returns: whether it was there.
    @discardableResult
    public func removeImage(forKey key: CacheKey) -> Bool {
        removeImage(withIdentifier: key.string)
    }
}
