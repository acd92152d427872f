import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - One transfer for many requests

@Suite("PipelineHTTP: concurrent requests for one URL share one HTTP transfer and one decode")
struct PipelineHTTPCoalescingTests {
    let http: HTTPPipelineFixture

    init() async throws {
        http = try await HTTPPipelineFixture.start()
    }

    @Test("eight concurrent image(for:variant:) calls for one URL hit the server once")
    func eightRequestsOneHit() async throws {
        var configuration = http.configuration()
        let counters = StageCounters()
        configuration.counters = counters
        let pipeline = ImagePipeline(configuration: configuration)
        // The delay keeps the transfer open while all eight requests arrive.
        let path = "/image/\(HTTPPipelineFixture.imageName)?delay=0.5&test=eight"
        let url = http.url(path)
        let responses = try await withThrowingTaskGroup(of: ImageResponse.self) { group in
            for _ in 0..<8 {
                group.addTask { try await pipeline.image(for: url, variant: "circle") }
            }
            return try await group.reduce(into: [ImageResponse]()) { $0.append($1) }
        }
        #expect(responses.count == 8)
        #expect(http.server.hits(path) == 1)
        #expect(http.statuses(path) == [200])
        #expect(Set(responses.map(\.bytes)).count == 1)
        #expect(responses.first?.bytes == (try HTTPPipelineFixture.expected([PipelineFixture.circle]))[0])
        #expect(counters.decodes == 1 && counters.encodes == 1)
    }

    @Test("[aspect-fill, circle] and [aspect-fill, rounded-corners] of one URL: one hit, one decode, one aspect-fill")
    func sharedPrefixOneHit() async throws {
        var configuration = http.configuration()
        let counters = StageCounters()
        configuration.counters = counters
        let pipeline = ImagePipeline(configuration: configuration)
        let path = "/image/\(HTTPPipelineFixture.imageName)?delay=0.3&test=prefix"
        let circle = pipeline.request(ImageRequest(location: http.url(path), variant: .named("circle")))
        let rounded = pipeline.request(ImageRequest(location: http.url(path), variant: .named("rounded")))
        let a = try await circle.response, b = try await rounded.response
        #expect(http.server.hits(path) == 1)
        #expect(counters.decodes == 1)
        #expect(counters.filterRuns[PipelineFixture.circle.chain.prefixIdentifiers[0]] == 1)
        #expect(counters.totalFilterRuns == 3)
        #expect(counters.encodes == 2)
        #expect(a.cacheLayer == .rendered && b.cacheLayer == .rendered)
        #expect(a.image?.size == PixelSize(width: 64, height: 64))
        let expected = try HTTPPipelineFixture.expected([PipelineFixture.circle, PipelineFixture.rounded])
        #expect(a.bytes == expected[0] && b.bytes == expected[1])

        // Both are now in memory: no further request reaches the server.
        #expect(try await pipeline.image(for: http.url(path), variant: "rounded").cacheLayer == .memory)
        #expect(http.server.hits(path) == 1)
    }

    @Test("a batch of three variants of one URL is one request and one decode per distinct scale")
    func batch() async throws {
        var configuration = http.configuration()
        let counters = StageCounters()
        configuration.counters = counters
        let pipeline = ImagePipeline(configuration: configuration)
        let path = "/image/\(HTTPPipelineFixture.imageName)?test=batch"
        let responses = try await pipeline.images(for: http.url(path), variants: ["thumbnail", "circle", "rounded"])
        #expect(responses.map(\.format) == [.jpeg, .png, .png])
        #expect(http.server.hits(path) == 1)
        let targets = [PipelineFixture.thumbnail, PipelineFixture.circle, PipelineFixture.rounded]
        #expect(counters.decodes == (try PipelineFixture.distinctDecodes(targets, of: HTTPPipelineFixture.imageBytes)))
        #expect(responses.map(\.bytes) == (try HTTPPipelineFixture.expected(targets)))
        #expect(responses.map(\.bytes) == (try PipelineFixture.renderedAlone(targets, of: HTTPPipelineFixture.imageBytes)))
    }
}
