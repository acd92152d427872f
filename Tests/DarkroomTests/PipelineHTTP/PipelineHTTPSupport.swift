import Darkroom
import DarkroomCache
import DarkroomCore
import DarkroomCurl
import DarkroomTestSupport
import Foundation

// MARK: - Pipelines over the loopback HTTP server

/// A real loopback HTTP server, an `HTTPSource` that may reach it, and pipelines over both.
struct HTTPPipelineFixture {
    let server: LoopbackHTTPServer
    let source: HTTPSource

    /// The fixture every HTTP pipeline test fetches (64×48, 861 bytes).
    static let imageName = "gradient.jpg"
    static var imageBytes: [UInt8] { Fixtures.bytes(imageName) }

    /// Starts the server (on a thread of its own, see `LoopbackHTTPServer.launch`).
    static func start() async throws -> HTTPPipelineFixture {
        let server = try await LoopbackHTTPServer.launch()
        var settings = HTTPSourceSettings()
        settings.allowPrivateNetworks = true
        settings.allowedPorts = []
        settings.retry.baseDelay = 0.05
        // Long Retry-After waits are honoured, so a test can make one outlast any scheduling delay.
        settings.retry.maxRetryAfter = 120
        // Held responses send nothing until released; under a full parallel test run that can
        // outlast the default 10 s low-speed limit and 30 s whole-transfer limit (a CI run saw
        // the latter abort held transfers), which would end them mid-test.
        settings.lowSpeedTime = 600
        settings.totalTimeout = 600
        return HTTPPipelineFixture(server: server, source: HTTPSource(settings: settings))
    }

    /// The pipeline configuration of the pipeline tests (circle, rounded, thumbnail, gray)
    /// with the HTTP source first.
    func configuration(
        memory: EncodedImageMemoryCache? = EncodedImageMemoryCache(), disk: DiskCache? = nil
    ) -> ImagePipeline.Configuration {
        PipelineFixture.configuration(source: source, memory: memory, disk: disk)
    }

    func url(_ path: String) -> String { server.url(path) }

    /// The paths of every request the server received, in arrival order, among `paths`.
    func requestOrder(among paths: [String]) -> [String] {
        server.events().filter { $0.event == "request" && paths.contains($0.path) }.map(\.path)
    }

    /// The statuses the server sent for `path`, in order.
    func statuses(_ path: String) -> [Int?] {
        server.finished(path).map(\.status)
    }

    /// What `VariantRenderer` makes of the fixture for `targets` (the bytes a pipeline must match).
    static func expected(_ targets: [RenderTarget], from bytes: [UInt8] = imageBytes) throws -> [[UInt8]] {
        try VariantRenderer(registry: PipelineFixture.registry).render(bytes, targets: targets).map(\.bytes)
    }
}

/// The `fetchFailed` status and reason of `error`, or `nil` for any other error.
func fetchFailure(of error: (any Error)?) -> (status: Int?, reason: String)? {
    if case let DarkroomError.fetchFailed(_, status, reason, _)? = error as? DarkroomError { return (status, reason) }
    return nil
}

/// The error `body` throws (`nil` when it returns).
func thrownError(_ body: () async throws -> Void) async -> (any Error)? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
