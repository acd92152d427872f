import Darkroom
import DarkroomCache
import DarkroomConfig
import DarkroomCore
import DarkroomServer
import DarkroomTestSupport
import Foundation

// MARK: - ServerFixture

/// A root folder of real images, a small configuration, and an ``ImageServer`` over them.
///
/// The root holds `gradient.jpg` (64×48), `alpha.png` (64×48 RGBA), `sub/deep.jpg`,
/// `notes.jpg` (an HTML page named .jpg), a folder `folder.jpg`, and `escape.jpg`, a symbolic
/// link to a file outside the root.
struct ServerFixture {
    static let configurationText = """
        [variants.thumb]
        filters = [ { filter = "aspect-fit", width = 32, height = 32 } ]
        format = "jpeg"
        quality = 80

        [variants.square]
        filters = [ { filter = "aspect-fill", width = 20, height = 20 } ]
        format = "png"

        [sources.http]
        allow-private-networks = true
        allowed-ports = []
        # Held transfers end by cancellation in these tests, never by the source's own timeouts
        # (a full CI run can stall every process for a minute).
        timeout = "300s"
        low-speed-time = "300s"
        retries = 0
        """

    let root: TemporaryDirectory
    let outside: TemporaryDirectory
    let configuration: Configuration

    init() throws {
        root = try TemporaryDirectory(prefix: "darkroom-server-root")
        outside = try TemporaryDirectory(prefix: "darkroom-server-outside")
        let files = FileManager.default
        try files.copyItem(atPath: Fixtures.path("gradient.jpg"), toPath: root.path("gradient.jpg"))
        try files.copyItem(atPath: Fixtures.path("gradient-rgba.png"), toPath: root.path("alpha.png"))
        try files.createDirectory(atPath: root.path("sub"), withIntermediateDirectories: true)
        try files.copyItem(atPath: Fixtures.path("gradient.jpg"), toPath: root.path("sub/deep.jpg"))
        try files.copyItem(atPath: Fixtures.path("html.jpg"), toPath: root.path("notes.jpg"))
        try files.createDirectory(atPath: root.path("folder.jpg"), withIntermediateDirectories: true)
        try files.copyItem(atPath: Fixtures.path("gradient.jpg"), toPath: outside.path("secret.jpg"))
        try files.createSymbolicLink(atPath: root.path("escape.jpg"), withDestinationPath: outside.path("secret.jpg"))
        configuration = ConfigLoader.load(
            sources: [(name: "server.toml", text: Self.configurationText)], filters: Registry.standard.filters)
    }

    /// A server over the fixture's root and configuration, with a memory cache and no disk cache.
    func server(
        root: Bool = true, remote: Bool = true, signer: URLSigner? = nil, fallback: [UInt8]? = nil, webP: Bool = false,
        avif: Bool = false, metrics: ServerMetrics? = nil, unsignedChains: Bool = false
    ) throws -> TestServer {
        var settings = ImageServerSettings(root: root ? self.root.url.path : nil, allowsRemoteSources: remote, signer: signer)
        settings.allowsUnsignedChains = unsignedChains
        settings.negotiatesWebP = webP
        settings.negotiatesAVIF = avif
        settings.metrics = metrics
        let server = try ImageServer(registry: .standard, configuration: configuration, caches: .none, settings: settings) {
            $0.caches = .memory()
            $0.fallback = fallback
        }
        return TestServer(server: server, fixture: self)
    }
}

// MARK: - TestServer

/// An ``ImageServer`` answering in process, holding its fixture's folders for as long as it
/// is used (they are deleted with the last reference).
struct TestServer {
    let server: ImageServer
    let fixture: ServerFixture

    /// `GET path` (or another method).
    func get(
        _ path: String, method: String = "GET", ifNoneMatch: String? = nil, accept: String? = nil
    ) async -> ImageServerResponse {
        let response = await server.respond(
            to: ImageServerRequest(method: method, path: path, ifNoneMatch: ifNoneMatch, accept: accept))
        withExtendedLifetime(fixture) {}
        return response
    }
}

extension ImageServer {
    /// `GET path`, answered in process.
    func get(_ path: String) async -> ImageServerResponse {
        await respond(to: ImageServerRequest(method: "GET", path: path))
    }
}

extension ImageServerResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}
