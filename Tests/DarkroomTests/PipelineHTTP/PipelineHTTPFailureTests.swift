import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - HTTP failures through the pipeline

@Suite("PipelineHTTP: HTTP failures reach every waiter with the real error, are not cached, can fall back; 503s are retried")
struct PipelineHTTPFailureTests {
    let http: HTTPPipelineFixture

    init() async throws {
        http = try await HTTPPipelineFixture.start()
    }

    @Test("a 404 reaches every concurrent waiter as fetchFailed(404), and the next request asks the server again")
    func notFoundEveryWaiter() async throws {
        let pipeline = ImagePipeline(configuration: http.configuration())
        let path = "/status/404?delay=0.3"
        let tasks = ["circle", "gray", "circle", "rounded"].map {
            pipeline.request(ImageRequest(location: http.url(path), variant: .named($0)))
        }
        for task in tasks {
            let error = await thrownError { _ = try await task.response }
            let failure = fetchFailure(of: error)
            #expect(failure?.status == 404, "got \(String(describing: error))")
        }
        #expect(http.server.hits(path) == 1)

        let again = await thrownError { _ = try await pipeline.image(for: http.url(path), variant: "circle") }
        #expect(fetchFailure(of: again)?.status == 404)
        #expect(http.server.hits(path) == 2)
    }

    @Test("an HTML page served as image/jpeg is refused as not an image")
    func htmlAsJPEG() async throws {
        let pipeline = ImagePipeline(configuration: http.configuration())
        let error = await thrownError { _ = try await pipeline.image(for: http.url("/html-as-jpeg"), variant: "gray") }
        let failure = try #require(fetchFailure(of: error), "got \(String(describing: error))")
        #expect(failure.status == 200)
        #expect(failure.reason.contains("not an image"))
        #expect(failure.reason.contains("image/jpeg"))
        #expect(http.server.hits("/html-as-jpeg") == 1)
    }

    @Test("with a fallback, a 404 gets the placeholder through the variant, marked, with the HTTP error")
    func fallback() async throws {
        var configuration = http.configuration()
        configuration.fallback = PipelineFixture.placeholderPNG
        let pipeline = ImagePipeline(configuration: configuration)
        let path = "/status/404?test=fallback"
        let response = try await pipeline.image(for: http.url(path), variant: "circle")
        #expect(response.isFallback)
        #expect(fetchFailure(of: response.fallbackError)?.status == 404)
        let expected = try HTTPPipelineFixture.expected([PipelineFixture.circle], from: PipelineFixture.placeholderPNG)
        #expect(response.bytes == expected[0])

        // The failure is not cached under the URL: the next request asks the server again.
        let again = try await pipeline.image(for: http.url(path), variant: "circle")
        #expect(again.isFallback)
        #expect(http.server.hits(path) == 2)

        // A URL that works is not affected by the fallback.
        let good = try await pipeline.image(for: http.url("/image/\(HTTPPipelineFixture.imageName)?test=fallback"), variant: "circle")
        #expect(!good.isFallback && good.fallbackError == nil)
        #expect(good.bytes == (try HTTPPipelineFixture.expected([PipelineFixture.circle]))[0])
    }

    @Test("a connection cut mid-body fails every waiter after the retries, never with a partial image")
    func cutTransfer() async throws {
        let pipeline = ImagePipeline(configuration: http.configuration())
        let path = "/cut/\(HTTPPipelineFixture.imageName)"
        let tasks = ["circle", "gray"].map { pipeline.request(ImageRequest(location: http.url(path), variant: .named($0))) }
        for task in tasks {
            let error = await thrownError { _ = try await task.response }
            let failure = fetchFailure(of: error)
            #expect(failure?.reason.contains("connection cut") == true, "got \(String(describing: error))")
        }
        // One attempt and the default two retries, shared by both waiters.
        #expect(http.server.hits(path) == 3)
    }

    @Test("a URL that fails once with 503 succeeds through the pipeline after one retry (two hits)")
    func flakyRetried() async throws {
        let pipeline = ImagePipeline(configuration: http.configuration())
        let path = "/flaky/1/\(HTTPPipelineFixture.imageName)"
        let response = try await pipeline.image(for: http.url(path), variant: "circle")
        #expect(response.cacheLayer == .rendered)
        #expect(response.bytes == (try HTTPPipelineFixture.expected([PipelineFixture.circle]))[0])
        #expect(http.server.hits(path) == 2)
        #expect(http.statuses(path) == [503, 200])
    }
}
