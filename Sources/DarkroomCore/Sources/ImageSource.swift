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

    /// The canonical key of `location` — what ``SourceData/key`` will be — computed without
    /// loading, so that pipelines can coalesce and look up caches first. The default returns
    /// `location` unchanged; sources whose locations have many spellings normalise them.
    /// - Throws: ``DarkroomError`` for a location this source would refuse anyway.
    func key(for location: String) throws -> String

    /// A cheap token that changes whenever the content at `location` may have changed (a
    /// file's size, modification time and inode), computed without loading; `nil` when only a
    /// load can tell (HTTP). Render caches put it in their keys, so an edited file is never
    /// served from an old render. The default is `nil`.
    func fingerprint(for location: String) throws -> String?

    /// ``key(for:)`` and ``fingerprint(for:)`` at once — what a cache lookup needs. The default
    /// calls both; sources that can compute them together (one path resolution) override it.
    func identity(for location: String) throws -> (key: String, fingerprint: String?)

    /// Loads `location`, revalidating a copy the caller already holds: a source that can ask
    /// "has it changed?" (HTTP `If-None-Match` / `If-Modified-Since`) returns
    /// ``SourceLoadOutcome/notModified(_:)`` with the cached copy (its freshness refreshed)
    /// instead of the bytes again. The default ignores `cached` and loads.
    func load(_ location: String, revalidating cached: SourceData?) async throws -> SourceLoadOutcome
}

// MARK: - Defaults

extension ImageSource {
    public func key(for location: String) throws -> String { location }

    public func fingerprint(for location: String) throws -> String? { nil }

    public func identity(for location: String) throws -> (key: String, fingerprint: String?) {
        (try key(for: location), try fingerprint(for: location))
    }

    public func load(_ location: String, revalidating cached: SourceData?) async throws -> SourceLoadOutcome {
        .loaded(try await load(location))
    }
}

// MARK: - SourceLoadOutcome

/// The result of a revalidating load.
///
/// ```swift
/// switch try await source.load(url, revalidating: cachedCopy) {
/// case .loaded(let data): store(data)
/// case .notModified(let data): refresh(data)   // same bytes, new freshness
/// }
/// ```
public enum SourceLoadOutcome: Sendable, Hashable {
    /// New bytes (the first load, or the source changed).
    case loaded(SourceData)
    /// The cached copy is still current; its metadata may carry a new ``SourceData/maxAge``.
    case notModified(SourceData)

    /// The data either way.
    public var data: SourceData {
        switch self {
        case let .loaded(data), let .notModified(data): return data
        }
    }
}

// MARK: - SourceData

/// Bytes loaded by an ``ImageSource``, with what the source knows about them.
public struct SourceData: Sendable, Hashable {
    /// The canonical location, used as the source part of cache keys.
    public var key: String
    /// The loaded bytes (an encoded image), exactly as the source returned them.
    public var bytes: [UInt8]
    /// The media type the source reported (HTTP `Content-Type`), if any.
    public var contentType: String?
    /// An HTTP entity tag, if any.
    public var etag: String?
    /// An HTTP `Last-Modified` value, if any.
    public var lastModified: String?
    /// How long, in seconds, the bytes may be reused without asking the source again
    /// (HTTP `Cache-Control: max-age`, or `s-maxage`); `nil` when the source said nothing.
    public var maxAge: Int?
    /// The source forbids keeping the bytes (HTTP `Cache-Control: no-store`): caches must not
    /// store them.
    public var noStore: Bool

    /// Builds loaded data under cache key `key`; the other parameters are what the source said
    /// about the bytes, and default to nothing known (`nil`, and `noStore` `false`).
    public init(
        key: String, bytes: [UInt8], contentType: String? = nil, etag: String? = nil, lastModified: String? = nil,
        maxAge: Int? = nil, noStore: Bool = false
    ) {
        self.key = key
        self.bytes = bytes
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.maxAge = maxAge
        self.noStore = noStore
    }
}
