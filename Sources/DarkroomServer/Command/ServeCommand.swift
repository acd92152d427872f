import ArgumentParser
import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomCore
import DarkroomSources
import DarkroomWorkers
import FoundationEssentials
import Glibc
import Logging
import Prometheus
import Synchronization

// MARK: - darkroom-server

/// The `darkroom-server` command line: where the configuration, the images and the port are.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "darkroom-server",
        abstract: "Serve the variants of filters.d/ over HTTP, rendering and caching them on demand.",
        discussion: """
            GET /VARIANT/SOURCE answers the variant (a [variants.NAME] of the configuration) of \
            SOURCE: a path under --root, or a percent-encoded http(s) URL. Renders are cached in \
            memory and on disk as [caches.*] says, and concurrent requests share their work. \
            GET /health answers "ok"; GET /ready answers "ready", or 503 naming a cache layer \
            that does not answer (memcached down).

            Every option can come from the environment too; the command line wins: \
            \(ServerEnvironment.help).

            Signed paths: with $\(ServeCommand.keyVariable) and $\(ServeCommand.saltVariable) set \
            (hex, as imgproxy's IMGPROXY_KEY and IMGPROXY_SALT), every path must be \
            /SIGNATURE/VARIANT/SOURCE, SIGNATURE being the unpadded base64url HMAC-SHA256 of the \
            salt followed by /VARIANT/SOURCE.

            Examples:
              darkroom-server --root Samples
              darkroom-server --config deploy/filters.d --root /srv/images --host 0.0.0.0 --port 8080
              curl http://127.0.0.1:8080/thumbnail/photo.jpg -o thumbnail.jpg
              curl http://127.0.0.1:8080/avatar/https%3A%2F%2Fexample.com%2Fcat.jpg -o avatar.png
            """
    )

    static let keyVariable = "DARKROOM_KEY"
    /// The admin endpoint's bearer token (`POST /admin/purge`); unset, the endpoint is off.
    static let adminTokenVariable = "DARKROOM_ADMIN_TOKEN"
    static let saltVariable = "DARKROOM_SALT"

    @Option(help: "The filters.d folder (default: $DARKROOM_CONFIG, else ./filters.d, else the embedded default).")
    var config: String?

    @Option(help: "The folder image paths are served from (default: no files are served).")
    var root: String?

    @Flag(name: .customLong("no-remote"), help: "Refuse http(s) sources ([sources.http] says which hosts otherwise).")
    var noRemote = false

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port to listen on (0: any free port, printed once listening).")
    var port = 8080

    @Option(name: .customLong("idle-timeout"), parsing: .unconditional, help: "Seconds before an idle connection is closed (0: never).")
    var idleTimeout: Double = 60

    @Option(name: .customLong("max-age"), parsing: .unconditional, help: "Cache-Control max-age of images, in seconds.")
    var maxAge = 86_400

    @Flag(name: .customLong("auto-webp"), help: "Serve JPEG and PNG variants as WebP to clients whose Accept lists image/webp.")
    var autoWebP = false

    @Flag(name: .customLong("auto-avif"), help: "Serve JPEG variants as AVIF to clients whose Accept lists image/avif (before WebP).")
    var autoAVIF = false

    @Option(help: "An image rendered through the requested variant when a source fails.")
    var fallback: String?

    @Option(name: .customLong("stale-if-error"), parsing: .unconditional, help: "Seconds past its origin's freshness a render may still be served while the origin fails.")
    var staleIfError: Double = 0

    @Option(name: .customLong("max-freshness"), parsing: .unconditional, help: "The longest an origin's answer keeps a render of a URL fresh, in seconds, whatever it says (default: what it says).")
    var maxFreshness: Int?

    @Option(parsing: .unconditional, help: "Decodes, filters and encodes running at once (default: the processor count).")
    var jobs: Int?

    @Option(help: "Bytes of pixels the work in flight may hold, across all requests, such as 1GB (default: [limits] memory in filters.d, else 256MB).")
    var memory: String?

    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: "Refuse sources and filter outputs with more pixels than this (default: [limits] max-pixels in filters.d, else 100000000).")
    var maxPixels: Int?

    @Option(name: .customLong("max-frames"), parsing: .unconditional, help: "Refuse animations with more frames than this (default: [limits] max-frames in filters.d, else 1000).")
    var maxFrames: Int?

    @Option(name: .customLong("queue-timeout"), help: "How long work waits for room in the memory budget before the answer is 503 with Retry-After, such as 10s (default: [limits] queue-timeout in filters.d, else 30s).")
    var queueTimeout: String?

    @Option(name: .customLong("isolate-decoders"), help: "Formats decoded in worker processes, so a decoder crash fails one request, not the server: a comma-separated list, all, or none.")
    var isolateDecoders = IsolatedFormats.serverDefault

    @Option(name: .customLong("decoder-memory"), help: "Each decoder worker's memory cap, such as 2GB; an allocation past it fails that decode.")
    var decoderMemory = "2GB"

    @Option(name: .customLong("decoder-timeout"), help: "How long a decode in a worker may take before the worker is stopped, such as 30s.")
    var decoderTimeout = "30s"

    @Flag(help: "Serve Prometheus metrics at /metrics (to anyone who can reach the port).")
    var metrics = false

    @Flag(name: .customLong("allow-chains"), help: "Answer ad-hoc chains (/chain:IDENTIFIER/SOURCE) on unsigned paths too (signed paths always may).")
    var allowChains = false

    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the caches (every request renders).")
    var noCache = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(name: .customLong("log-format"), help: "text (one readable line each) or json (one JSON object each, for log shippers).")
    var logFormat = "text"

    /// A thread each, started as work needs them (see `ImagePipeline.Configuration.maximumActiveProcessing`).
    static let maximumJobs = 256
    /// A week: longer idle timeouts are "never" in practice; 0 says it.
    static let maximumIdleTimeout = 604_800.0

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port: expected 0…65535") }
        guard idleTimeout == 0 || (0.001...Self.maximumIdleTimeout).contains(idleTimeout) else {
            throw ValidationError(
                "--idle-timeout \(idleTimeout) is out of range: expected 0 (never) or 0.001…\(Int(Self.maximumIdleTimeout)) seconds")
        }
        guard maxAge >= 0 else { throw ValidationError("--max-age \(maxAge) is negative: expected seconds ≥ 0") }
        guard staleIfError >= 0, staleIfError.isFinite else {
            throw ValidationError("--stale-if-error \(staleIfError) is out of range: expected seconds ≥ 0")
        }
        if let maxFreshness, maxFreshness < 0 {
            throw ValidationError("--max-freshness \(maxFreshness) is negative: expected seconds ≥ 0")
        }
        if let jobs, !(1...Self.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs \(jobs) is out of range: expected 1…\(Self.maximumJobs)")
        }
        if let memory, (ConfigQuantity.bytes(memory) ?? 0) <= 0 {
            throw ValidationError("--memory \(memory) is not a size: expected bytes above zero, such as 1GB, 512MB or 1073741824")
        }
        if let maxPixels, maxPixels <= 0 { throw ValidationError("--max-pixels \(maxPixels) is out of range: expected pixels above zero") }
        if let maxFrames, maxFrames <= 0 { throw ValidationError("--max-frames \(maxFrames) is out of range: expected frames above zero") }
        if let queueTimeout, !(ConfigQuantity.seconds(queueTimeout).map { $0 > 0 && $0 <= LimitSettings.maximumQueueTimeout } ?? false) {
            throw ValidationError("--queue-timeout \(queueTimeout) is not a duration: expected above zero and at most a day, such as 10s or 500ms")
        }
        _ = try isolatedFormats()
        guard (ConfigQuantity.bytes(decoderMemory) ?? 0) >= 64 << 20 else {
            throw ValidationError("--decoder-memory \(decoderMemory) is not a size of at least 64MB, such as 2GB")
        }
        guard let timeout = ConfigQuantity.seconds(decoderTimeout), timeout > 0, timeout <= LimitSettings.maximumQueueTimeout else {
            throw ValidationError("--decoder-timeout \(decoderTimeout) is not a duration: expected above zero and at most a day, such as 30s")
        }
        if let root, root.isEmpty { throw ValidationError("--root is empty: give a folder (use --root . for this one)") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel) is not one of trace, debug, info, notice, warning, error, critical")
        }
        guard ["text", "json"].contains(logFormat) else {
            throw ValidationError("--log-format \(logFormat) is not one of text, json")
        }
        guard root != nil || !noRemote else {
            throw ValidationError("nothing to serve: give --root FOLDER, or drop --no-remote")
        }
    }

    // MARK: - Running

    /// Builds the server from the options and serves until SIGTERM or SIGINT.
    func run(registry: Registry) async throws {
        var logger = Logger(label: "darkroom.server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let location = ConfigLocation.resolve(explicit: config)
        let configuration = location.load(filters: registry.filters, writableFormats: Set(registry.writableFormats))
        let errors = configuration.errors
        guard errors.isEmpty else {
            let lines = errors.map { "darkroom-server: error: \($0)\n" }.joined()
            throw ServerStartFailure("\(lines)darkroom-server: \(location) has \(errors.count) error(s); run darkroom check")
        }
        if !noRemote, let error = configuration.sourceErrors.first { throw ServerStartFailure("darkroom-server: error: \(error)") }
        if !noCache, let error = configuration.cacheErrors.first { throw ServerStartFailure("darkroom-server: error: \(error)") }
        var settings = ImageServerSettings(root: root, allowsRemoteSources: !noRemote, maxAge: maxAge)
        settings.signer = try signer()
        settings.adminToken = try adminToken()
        settings.allowsUnsignedChains = allowChains
        settings.negotiatesWebP = autoWebP
        settings.negotiatesAVIF = autoAVIF
        if autoAVIF && !registry.writableFormats.contains(.avif) {
            throw ServerStartFailure("darkroom-server: error: --auto-avif: no registered encoder writes AVIF (libgd without AVIF support?)")
        }
        if metrics {
            let registry = PrometheusCollectorRegistry()
            settings.metrics = ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)) { registry.emitToBuffer() }
        }
        let caches: CacheLayers
        do {
            caches = noCache ? .none : try registry.cacheLayers(for: configuration.cacheSettings)
        } catch let error as ConfigurationError {
            throw ServerStartFailure("darkroom-server: error: \(error.diagnostics[0])")
        }
        let fallbackBytes = try fallback.map { try readFallback($0, registry: registry) }
        let isolated = try isolatedFormats()
        var registry = registry
        if !isolated.isEmpty {
            let pool = DecodeWorkerPool(
                configuration: .init(
                    executable: try Self.ownExecutable(), workers: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                    memoryLimit: ConfigQuantity.bytes(decoderMemory) ?? 2 << 30, timeout: ConfigQuantity.seconds(decoderTimeout) ?? 30),
                metricsFactory: settings.metrics?.factory)
            registry = registry.isolatingDecoders(of: isolated, in: pool)
        }
        let server = try ImageServer(registry: registry, configuration: configuration, caches: caches, settings: settings) {
            $0.fallback = fallbackBytes
            $0.staleIfError = staleIfError
            $0.maximumFreshness = maxFreshness
            if let jobs { $0.maximumActiveProcessing = jobs }
            $0.queueTimeout = Self.defaultQueueTimeout
            $0.apply(configuration.limitSettings)
            $0.apply(limits)
        }
        let isolation = isolated.isEmpty
            ? "" : "; \(ImageFormat.allCases.filter(isolated.contains).map(\.displayName).joined(separator: ", ")) decoded in worker processes"
        let summary = describe(configuration: configuration, location: location, settings: settings) + isolation
        let listening = Mutex(false)
        do {
            try await ImageServerHost(
                server: server, host: host, port: port, idleTimeout: idleTimeout > 0 ? idleTimeout : nil, logger: logger).run { address in
                listening.withLock { $0 = true }
                ProcessOutput.standardOutput("darkroom-server: listening on \(address) (\(summary))\n")
            }
        } catch where !listening.withLock({ $0 }) {
            // Bind failures (a port in use, an unknown host) say which address was asked for.
            throw ServerStartFailure("darkroom-server: error: cannot listen on \(host) port \(port): \(error)")
        }
    }

    /// The formats `--isolate-decoders` names.
    private func isolatedFormats() throws -> Set<ImageFormat> {
        do {
            return try IsolatedFormats.parse(isolateDecoders)
        } catch {
            throw ValidationError("--isolate-decoders: \(error)")
        }
    }

    /// This executable's path, for starting decoder workers.
    static func ownExecutable() throws -> String {
        guard let path = DecodeWorker.currentExecutable else {
            throw ServerStartFailure("darkroom-server: error: cannot find its own executable for the decoder workers")
        }
        return path
    }

    /// The limits the command line sets (over the configuration's `[limits]`).
    private var limits: LimitSettings {
        LimitSettings(
            memory: memory.flatMap(ConfigQuantity.bytes), maxPixels: maxPixels, maxFrames: maxFrames,
            queueTimeout: queueTimeout.flatMap(ConfigQuantity.seconds))
    }

    /// How long a server's work waits for room in the memory budget unless told otherwise:
    /// long enough for a queue of large renders to drain, short of a client's or a proxy's
    /// own timeout (nginx waits 60 s).
    static let defaultQueueTimeout = 30.0

    /// The signer `$DARKROOM_KEY` and `$DARKROOM_SALT` make, or `nil` when neither is set.
    private func signer() throws -> URLSigner? {
        let environment = ProcessInfo.processInfo.environment
        let key = environment[Self.keyVariable] ?? "", salt = environment[Self.saltVariable] ?? ""
        if key.isEmpty && salt.isEmpty { return nil }
        guard !key.isEmpty else {
            throw ServerStartFailure("darkroom-server: error: $\(Self.saltVariable) is set but $\(Self.keyVariable) is not")
        }
        return try URLSigner(hexKey: key, hexSalt: salt)
    }

    /// `$DARKROOM_ADMIN_TOKEN`, or `nil` when it is unset or empty (the endpoint is off).
    private func adminToken() throws -> String? {
        guard let token = ProcessInfo.processInfo.environment[Self.adminTokenVariable], !token.isEmpty else { return nil }
        guard token.count >= AdminEndpoint.minimumTokenLength, token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw ServerStartFailure(
                "darkroom-server: error: $\(Self.adminTokenVariable) must be at least \(AdminEndpoint.minimumTokenLength) printable ASCII characters without spaces")
        }
        return token
    }

    /// The `--fallback` image's bytes, refused now if `registry` cannot decode them (a broken
    /// fallback would otherwise be found out only when a source fails).
    private func readFallback(_ path: String, registry: Registry) throws -> [UInt8] {
        do {
            let bytes = try FileBytes.read(path)
            _ = try registry.decode(bytes)
            return bytes
        } catch {
            throw ServerStartFailure("darkroom-server: error: --fallback \(path): \(error)")
        }
    }

    /// "AVIF or WebP", "WebP", "AVIF".
    private func negotiated(_ settings: ImageServerSettings) -> String {
        FormatNegotiation.negotiable.filter(settings.negotiatedFormats.contains).map(\.displayName).joined(separator: " or ")
    }

    /// "4 variants from filters.d; files under /srv/images; remote sources on; unsigned paths"
    private func describe(configuration: Configuration, location: ConfigLocation, settings: ImageServerSettings) -> String {
        let count = configuration.variants.count
        let layered = location.readsBuiltInDefaults(configuration)
        return [
            "\(count) variant\(count == 1 ? "" : "s") from \(location)\(layered ? " over the built-in defaults" : "")",
            settings.root.map { "files under \($0)" } ?? "no files",
            "remote sources \(settings.allowsRemoteSources ? "on" : "off")",
            settings.signer == nil ? "unsigned paths" : "signed paths only",
            settings.allowsChains ? "ad-hoc chains" : nil,
            settings.negotiatedFormats.isEmpty ? nil : "\(negotiated(settings)) to clients that accept it",
            settings.metrics == nil ? nil : "metrics at /metrics",
            settings.adminToken == nil ? nil : "admin endpoint at /admin/purge",
        ].compactMap { $0 }.joined(separator: "; ")
    }
}

// MARK: - ServerStartFailure

/// Why the server did not start, already worded as the lines to print.
struct ServerStartFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
