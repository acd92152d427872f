import Darkroom
import DarkroomConfig
import DarkroomCore
import DarkroomCurl
import DarkroomSources

// MARK: - ImageServer

/// Darkroom's HTTP image server, apart from any HTTP library: it turns a request into a
/// response through an `ImagePipeline`, so every variant is cached (memory, then disk),
/// and concurrent requests for one source share its download, decode and filter work.
///
/// `GET /VARIANT/SOURCE` answers the variant's bytes with `Content-Type`, a strong `ETag`
/// (`If-None-Match` gets `304`), `Cache-Control` and `X-Darkroom-Cache` (`memory`, `disk` or
/// `rendered`), and with ``ImageServerSettings/negotiatesAVIF`` or
/// ``ImageServerSettings/negotiatesWebP`` AVIF or WebP to clients that accept them
/// (``FormatNegotiation``); errors are plain text naming what was wrong, with the status
/// ``ServerFailure`` gives. ``ImageServerHost`` serves it over HTTP/1.1.
///
/// ```swift
/// let server = try ImageServer(
///     registry: .standard, configuration: configuration, caches: caches,
///     settings: ImageServerSettings(root: "/srv/images"))
/// let response = await server.respond(to: ImageServerRequest(method: "GET", path: "/thumbnail/cat.jpg"))
/// ```
public struct ImageServer: Sendable {
    /// The pipeline that fetches sources and renders and caches the variants it answers with.
    public let pipeline: ImagePipeline
    /// What is served (root, remote sources, signatures) and how responses may be cached.
    public let settings: ImageServerSettings
    /// The AVIF and WebP twins requests may be answered with (as ``ImageServerSettings`` offers them).
    public let negotiation: FormatNegotiation?

    /// A server over a pipeline of your own; its registry must have the sources `settings`
    /// allow (a `FileSource` at ``ImageServerSettings/root``, an `HTTPSource`), and for format
    /// negotiation its variants must include `negotiation`'s twin targets.
    public init(pipeline: ImagePipeline, settings: ImageServerSettings, negotiation: FormatNegotiation? = nil) {
        self.pipeline = pipeline
        self.settings = settings
        self.negotiation = settings.negotiatedFormats.isEmpty ? nil : negotiation
    }

    /// A server over `registry` plus the sources `settings` allow (a `FileSource` at the root,
    /// an `HTTPSource` with the configuration's `[sources.http]` settings), rendering the
    /// configuration's variants through `caches`; `customize` may change the pipeline's
    /// configuration before it starts.
    ///
    /// ```swift
    /// let server = try ImageServer(registry: .standard, configuration: config, caches: caches, settings: settings) {
    ///     $0.fallback = placeholderPNG        // rendered through the variant when a source fails
    ///     $0.maximumActiveProcessing = 2
    /// }
    /// ```
    /// A fallback response has a short `max-age` and `X-Darkroom-Fallback` giving the error.
    /// - Throws: `DarkroomError/io(path:detail:)` when the root is not a folder.
    public init(
        registry: Registry, configuration: Configuration, caches: CacheLayers, settings: ImageServerSettings,
        customize: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) throws {
        var registry = try registry.registeringSources(of: configuration.sourceTables)
        if let root = settings.root { registry.register(source: try FileSource(root: root)) }
        if settings.allowsRemoteSources { registry.register(source: HTTPSource(settings: configuration.httpSourceSettings)) }
        var pipeline = ImagePipeline.Configuration(registry: registry, variants: configuration, caches: caches)
        var negotiation: FormatNegotiation?
        if !settings.negotiatedFormats.isEmpty {
            let twins = FormatNegotiation(variants: Array(pipeline.variants.values), offering: settings.negotiatedFormats)
            for target in twins.twinTargets { pipeline.variants[target.name] = target }
            negotiation = twins
        }
        pipeline.metricsFactory = settings.metrics?.factory
        if let prefix = settings.metrics?.prefix { pipeline.metricsPrefix = prefix }
        customize(&pipeline)
        self.init(pipeline: ImagePipeline(configuration: pipeline), settings: settings, negotiation: negotiation)
    }

    // MARK: - Responding

    /// The response to one request. Never throws: every failure is an error response.
    /// Cancelling the calling task (the client went away) ends it with status 499, and the
    /// pipeline drops the work no other request shares.
    public func respond(to request: ImageServerRequest) async -> ImageServerResponse {
        let response = await answer(request)
        settings.metrics?.record(status: response.status)
        return response
    }

    /// The answer to a request that a memory hit settles, made without suspending; `nil` when
    /// the request needs more (a render, a slower layer, a failure to explain, anything but a
    /// GET or HEAD of a configured variant), which ``respond(to:)`` then answers. A server host
    /// tries this first, so a hit costs no task of its own.
    ///
    /// ```swift
    /// let response = server.immediateResponse(to: request) ?? await server.respond(to: request)
    /// ```
    public func immediateResponse(to request: ImageServerRequest) -> ImageServerResponse? {
        immediateHit(to: request)?.response
    }

    /// ``immediateResponse(to:)`` with the source, the variant rendered (after negotiation)
    /// and the memory hit it answered with, for the host's ``PreparedHitHeaders``.
    func immediateHit(to request: ImageServerRequest) -> (response: ImageServerResponse, source: String, variant: String, image: ImageResponse)? {
        let isHead = request.method == "HEAD"
        guard request.method == "GET" || isHead,
            case let .image(variant, source)? = try? ImageServerRoute(path: Self.withoutQuery(request.path), signer: settings.signer),
            !AdHocChain.isChain(variant), (try? checkAllowed(source)) != nil
        else { return nil }
        let rendered = negotiation?.variant(for: variant, accept: request.accept) ?? variant
        guard let image = pipeline.memoryHit(for: source, variant: rendered) else { return nil }
        let response = response(for: image, variant: variant, request: request, isHead: isHead)
        settings.metrics?.record(status: response.status)
        return (response, source, rendered, image)
    }

    /// A request path without its query.
    private static func withoutQuery(_ path: String) -> String {
        path.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(path[..<$0]) } ?? path
    }

    private func answer(_ request: ImageServerRequest) async -> ImageServerResponse {
        let isHead = request.method == "HEAD"
        let path = Self.withoutQuery(request.path)
        do {
            let route = try ImageServerRoute(path: path, signer: settings.signer)
            if route == .purge { return try await purge(request) }
            guard request.method == "GET" || isHead else {
                throw ServerFailure(status: 405, message: "method \(request.method) is not allowed: use GET or HEAD")
            }
            switch route {
            case .purge:
                return try await purge(request)
            case .health:
                return .text("ok\n", isHead: isHead)
            case .ready:
                let failures = await pipeline.unreachableCacheLayers()
                guard failures.isEmpty else {
                    let why = failures.map { "[caches.\($0.layer)] \($0.error)" }.joined(separator: "; ")
                    throw ServerFailure(status: 503, message: "not ready: \(why)")
                }
                return .text("ready\n", isHead: isHead)
            case .metrics:
                guard let metrics = settings.metrics else {
                    throw ServerFailure.notFound("metrics are off on this server (darkroom-server --metrics turns them on)")
                }
                return .text(metrics.scrape(), type: "text/plain; version=0.0.4; charset=utf-8", isHead: isHead)
            case let .image(variant, source) where AdHocChain.isChain(variant):
                let target = try AdHocChain.target(variant, registry: pipeline.configuration.registry, settings: settings)
                try checkAllowed(source)
                let image = try await pipeline.request(ImageRequest(location: source, variant: .target(target))).response
                return response(for: image, ifNoneMatch: request.ifNoneMatch, isHead: isHead)
            case let .image(variant, source):
                try checkAllowed(source)
                let rendered = negotiation?.variant(for: variant, accept: request.accept) ?? variant
                let image = try await pipeline.image(for: source, variant: rendered)
                return response(for: image, variant: variant, request: request, isHead: isHead)
            }
        } catch is CancellationError where Task.isCancelled {
            // The caller stopped waiting: over HTTP, the client closed the connection.
            return .failure(ServerFailure(status: 499, message: "the client closed the connection before the answer was ready"))
        } catch {
            return .failure(ServerFailure(error))
        }
    }

    /// Refuses a source whose kind the settings switch off, saying how to switch it on.
    func checkAllowed(_ source: String) throws(ServerFailure) {
        if let schemeEnd = source.schemeSeparatorRange {
            let scheme = source[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "http" || scheme == "https" else {
                // A configured source kind's scheme (s3://): the source checks the rest (buckets).
                if let chosen = try? pipeline.configuration.registry.source(for: source), chosen.name != "file" { return }
                throw .badRequest("unsupported source scheme '\(scheme)': only http and https URLs, or paths under the root")
            }
            guard settings.allowsRemoteSources else {
                throw .forbidden("remote sources are off on this server: \(source)")
            }
        } else if settings.root == nil {
            throw .forbidden("file sources are off on this server (it was started without a root folder): \(source)")
        }
    }

    /// ``response(for:ifNoneMatch:isHead:)`` for the requested `variant`, saying `Vary: Accept`
    /// when the server negotiates its format.
    private func response(for image: ImageResponse, variant: String, request: ImageServerRequest, isHead: Bool) -> ImageServerResponse {
        var response = response(for: image, ifNoneMatch: request.ifNoneMatch, isHead: isHead)
        if negotiation?.negotiates(variant) == true { response.headers.append(("Vary", "Accept")) }
        return response
    }

    /// `200` with the bytes, or `304` when the client's tag matches.
    private func response(for image: ImageResponse, ifNoneMatch: String?, isHead: Bool) -> ImageServerResponse {
        // A render or a memory hit brings its digest: hashing the body on every hit was a
        // tenth of a hit's CPU (Benchmarks/README.md, "Server").
        let tag = image.contentDigest.map(EntityTag.init(digest:)) ?? EntityTag(body: image.bytes)
        // Never more freshness than the source's answer gave (an origin's max-age or Expires).
        let maxAge = min(image.isFallback ? settings.fallbackMaxAge : settings.maxAge, image.freshness ?? .max)
        let notModified = ifNoneMatch.map { tag.matches(ifNoneMatch: $0) } ?? false
        // Built in order, with room for what the host and negotiation add (a memory hit pays
        // for every header it carries).
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(10)
        if !notModified { headers.append(("Content-Type", image.format.mimeType)) }
        headers.append(("ETag", tag.value))
        headers.append(("Cache-Control", "public, max-age=\(maxAge)"))
        headers.append(("X-Darkroom-Cache", image.cacheLayer.rawValue))
        if image.isFallback {
            let reason = image.fallbackError.map { ServerFailure($0).message } ?? "the source failed"
            headers.append(("X-Darkroom-Fallback", Self.headerSafe(reason)))
        }
        if let flattened = image.flattenedAnimation {
            // e.g. "first-frame; 24 frames; JPEG cannot animate, so the first frame was written"
            headers.append(("X-Darkroom-Animation", Self.headerSafe("first-frame; \(flattened)")))
        }
        if notModified { return ImageServerResponse(status: 304, headers: headers) }
        headers.append(("Content-Length", String(image.bytes.count)))
        return ImageServerResponse(status: 200, headers: headers, body: isHead ? [] : image.bytes)
    }

    /// `text` as a header can carry it: control characters made spaces, non-ASCII ones `?`.
    static func headerSafe(_ text: String) -> String {
        String(text.unicodeScalars.map { scalar -> Character in
            if scalar.value < 0x20 || scalar.value == 0x7F { return " " }
            return scalar.isASCII ? Character(scalar) : "?"
        })
    }
}
