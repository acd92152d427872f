// MARK: - ImageSource

/// Where encoded bytes come from: files, HTTP, memory.
///
/// Contract:
/// - **Selection.** The registry asks sources in order; the first whose
///   ``canLoad(_:)`` returns `true` loads. A source may decline any location.
/// - **Keys.** ``SourceData/key`` is the canonical, stable name of what was loaded
///   (an absolute path, a normalised URL); caches and coalescing use it.
/// - **Cancellation.** `load` honours Swift task cancellation: it stops work and throws
///   ``DarkroomError/cancelled`` (or `CancellationError`) promptly.
/// - **Threading.** Sources are `Sendable` and may serve many loads at once.
/// - **Errors.** Throws ``DarkroomError`` naming the location and what was wrong.
///
/// ```swift
/// if source.canLoad("photos/cat.jpg") {
///     let data = try await source.load("photos/cat.jpg")
/// }
/// ```
public protocol ImageSource: Sendable {
    /// A short name for logs and `darkroom list`, e.g. `"file"`.
    var name: String { get }

    /// Whether this source handles `location`. Cheap; no I/O.
    func canLoad(_ location: String) -> Bool

    /// Loads the bytes at `location`.
    func load(_ location: String) async throws -> SourceData
}

// MARK: - SourceData

/// Bytes loaded by an ``ImageSource``, with what the source knows about them.
public struct SourceData: Sendable, Hashable {
    /// The canonical location, used as the source part of cache keys.
    public var key: String
    public var bytes: [UInt8]
    /// The media type the source reported (HTTP `Content-Type`), if any.
    public var contentType: String?
    /// An HTTP entity tag, if any.
    public var etag: String?
    /// An HTTP `Last-Modified` value, if any.
    public var lastModified: String?

    public init(key: String, bytes: [UInt8], contentType: String? = nil, etag: String? = nil, lastModified: String? = nil) {
        self.key = key
        self.bytes = bytes
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
    }
}
