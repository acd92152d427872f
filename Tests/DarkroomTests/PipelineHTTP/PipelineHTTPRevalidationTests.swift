import Darkroom
import DarkroomCache
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Stored originals and HTTP revalidation

@Suite("PipelineHTTP: stored originals are reused while fresh, revalidated with 304 when stale, never stored when no-store")
struct PipelineHTTPRevalidationTests {
    let http: HTTPPipelineFixture
    let cacheFolder: TemporaryDirectory
    let disk: DiskCache

    init() async throws {
        http = try await HTTPPipelineFixture.start()
        cacheFolder = try TemporaryDirectory()
        disk = try DiskCache(directory: cacheFolder.url.path)
    }

    func pipeline() -> ImagePipeline {
        var configuration = http.configuration(disk: disk)
        configuration.caches = configuration.caches.keepingOriginals(in: "disk")
        return ImagePipeline(configuration: configuration)
    }

    func storedOriginal(_ path: String) throws -> DiskCacheEntry? {
        disk.entry(for: CacheKey.original(source: try http.source.key(for: http.url(path))))
    }

    @Test("a stale original (max-age=0) is revalidated for a second variant: If-None-Match, 304, stored bytes reused")
    func staleRevalidated() async throws {
        let pipeline = pipeline()
        let path = "/image/\(HTTPPipelineFixture.imageName)?max-age=0"
        let circle = try await pipeline.image(for: http.url(path), variant: "circle")
        let stored = try #require(try storedOriginal(path))
        #expect(stored.bytes == HTTPPipelineFixture.imageBytes)
        let etag = try #require(stored.etag)

        let rounded = try await pipeline.image(for: http.url(path), variant: "rounded")
        let requests = http.server.requests(path)
        #expect(requests.count == 2)
        #expect(requests.first?.headers["if-none-match"] == nil)
        #expect(requests.last?.headers["if-none-match"] == etag)
        #expect(http.statuses(path) == [200, 304])
        let expected = try HTTPPipelineFixture.expected([PipelineFixture.circle, PipelineFixture.rounded])
        #expect(circle.bytes == expected[0] && rounded.bytes == expected[1])
        #expect(circle.cacheLayer == .rendered && rounded.cacheLayer == .rendered)
        #expect(try storedOriginal(path)?.bytes == HTTPPipelineFixture.imageBytes)
    }

    @Test("a fresh original (max-age=60) serves a second variant and the original itself with no request")
    func freshReused() async throws {
        let pipeline = pipeline()
        let path = "/image/\(HTTPPipelineFixture.imageName)?max-age=60"
        _ = try await pipeline.image(for: http.url(path), variant: "circle")
        let gray = try await pipeline.image(for: http.url(path), variant: "gray")
        #expect(gray.cacheLayer == .rendered)
        #expect(gray.bytes == (try HTTPPipelineFixture.expected([PipelineFixture.gray]))[0])
        let original = try await pipeline.request(ImageRequest(location: http.url(path), variant: .original)).response
        #expect(original.bytes == HTTPPipelineFixture.imageBytes && original.format == .jpeg && original.cacheLayer == .disk)
        #expect(http.server.hits(path) == 1)
        #expect(try storedOriginal(path)?.maxAge == 60)
    }

    @Test("no-store bytes are stored nowhere: every request fetches them with a plain 200")
    func noStore() async throws {
        let pipeline = pipeline()
        let path = "/image/\(HTTPPipelineFixture.imageName)?no-store=1"
        _ = try await pipeline.image(for: http.url(path), variant: "circle")
        #expect(try storedOriginal(path) == nil)
        let rounded = try await pipeline.image(for: http.url(path), variant: "rounded")
        #expect(rounded.bytes == (try HTTPPipelineFixture.expected([PipelineFixture.rounded]))[0])
        let again = try await pipeline.image(for: http.url(path), variant: "circle")
        #expect(again.cacheLayer == .rendered)
        #expect(http.statuses(path) == [200, 200, 200])
        #expect(http.server.requests(path).allSatisfy { $0.headers["if-none-match"] == nil })
        #expect(try storedOriginal(path) == nil)
    }
}
