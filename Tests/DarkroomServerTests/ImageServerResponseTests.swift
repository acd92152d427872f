import Darkroom
import DarkroomCore
import Foundation
import DarkroomServer
import DarkroomTestSupport
import Testing

// MARK: - Serving variants

@Suite("The image server answers variants of files with cache headers")
struct ImageServerResponseTests {
    @Test("GET /VARIANT/PATH renders the variant with its content type, length, ETag and Cache-Control")
    func rendersVariant() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.server()
        let response = await server.get("/thumb/gradient.jpg")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "image/jpeg")
        #expect(response.header("Content-Length") == String(response.body.count))
        #expect(response.header("Cache-Control") == "public, max-age=86400")
        #expect(response.header("X-Darkroom-Cache") == "rendered")
        let image = try Registry.standard.decode(response.body)
        #expect(image.width == 32 && image.height == 24)

        let square = await server.get("/square/sub/deep.jpg")
        #expect(square.status == 200)
        #expect(square.header("Content-Type") == "image/png")
        let decoded = try Registry.standard.decode(square.body)
        #expect(decoded.width == 20 && decoded.height == 20)
    }

    @Test("The second request is a memory-cache hit with the same bytes and ETag")
    func secondRequestHitsMemory() async throws {
        let server = try ServerFixture().server()
        let first = await server.get("/thumb/gradient.jpg")
        let second = await server.get("/thumb/gradient.jpg?v=2")
        #expect(second.status == 200)
        #expect(second.header("X-Darkroom-Cache") == "memory")
        #expect(second.body == first.body)
        #expect(second.header("ETag") == first.header("ETag"))
        #expect(first.header("ETag") == EntityTag(body: first.body).value)
        #expect(EntityTag(digest: ContentDigest.of(first.body)) == EntityTag(body: first.body))
    }

    @Test("X-Darkroom-Cache names the layer that answered by its [caches.NAME] table")
    func cacheHeaderNamesTheLayer() async throws {
        let fixture = try ServerFixture()
        let folder = try TemporaryDirectory()
        let configuration = ConfigLoader.load(
            sources: [(name: "server.toml", text: ServerFixture.configurationText + """

                [caches.hot]
                type = "memory"
                capacity = "1MB"

                [caches.shared-disk]
                type = "disk"
                path = "\(folder.url.path)"
                """)],
            filters: Registry.standard.filters)
        #expect(configuration.errors.isEmpty, "\(configuration.errors)")
        func server() throws -> ImageServer {
            let caches = try Registry.standard.cacheLayers(for: configuration.cacheSettings, environment: [:])
            #expect(caches.layers.map(\.name) == ["hot", "shared-disk"])
            return try ImageServer(
                registry: .standard, configuration: configuration, caches: caches,
                settings: ImageServerSettings(root: fixture.root.url.path))
        }
        let first = try server()
        #expect(await first.get("/thumb/gradient.jpg").header("X-Darkroom-Cache") == "rendered")
        #expect(await first.get("/thumb/gradient.jpg").header("X-Darkroom-Cache") == "hot")
        let restarted = try server()
        let fromDisk = await restarted.get("/thumb/gradient.jpg")
        #expect(fromDisk.header("X-Darkroom-Cache") == "shared-disk")
        #expect(await restarted.get("/thumb/gradient.jpg").header("X-Darkroom-Cache") == "hot")
    }

    @Test("If-None-Match with the ETag answers 304 without a body; another tag gets the image")
    func conditionalRequests() async throws {
        let server = try ServerFixture().server()
        let first = await server.get("/thumb/gradient.jpg")
        let tag = try #require(first.header("ETag"))
        let notModified = await server.get("/thumb/gradient.jpg", ifNoneMatch: "\"other\", W/\(tag)")
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == tag)
        #expect(notModified.header("Cache-Control") == "public, max-age=86400")
        let changed = await server.get("/thumb/gradient.jpg", ifNoneMatch: "\"0123\"")
        #expect(changed.status == 200)
        #expect(changed.body == first.body)
    }

    @Test("HEAD answers GET's headers without the body")
    func head() async throws {
        let server = try ServerFixture().server()
        let get = await server.get("/square/alpha.png")
        let head = await server.get("/square/alpha.png", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count))
        #expect(head.header("ETag") == get.header("ETag"))
    }

    @Test("A file that changes gets a new render and a new ETag")
    func changedFile() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.server()
        let before = await server.get("/thumb/gradient.jpg")
        try FileManager.default.removeItem(atPath: fixture.root.path("gradient.jpg"))
        try FileManager.default.copyItem(atPath: Fixtures.path("blocks-palette.png"), toPath: fixture.root.path("gradient.jpg"))
        let after = await server.get("/thumb/gradient.jpg")
        #expect(after.status == 200)
        #expect(after.header("X-Darkroom-Cache") == "rendered")
        #expect(after.header("ETag") != before.header("ETag"))
    }

    @Test("Percent-encoded paths name the same file")
    func percentEncodedPath() async throws {
        let fixture = try ServerFixture()
        try FileManager.default.copyItem(atPath: Fixtures.path("gradient.jpg"), toPath: fixture.root.path("my photo ü.jpg"))
        let server = try fixture.server()
        let response = await server.get("/thumb/" + PercentEncoding.encode("my photo ü.jpg"))
        #expect(response.status == 200, "\(response.text)")
        #expect(await server.get("/thumb/sub%2Fdeep.jpg").status == 200)
    }

    @Test("GET /health answers ok, uncached")
    func health() async throws {
        let response = await (try ServerFixture().server()).get("/health")
        #expect(response.status == 200)
        #expect(response.text == "ok\n")
        #expect(response.header("Cache-Control") == "no-store")
    }

    @Test("A failed source is answered with the fallback image, marked and briefly cacheable")
    func fallback() async throws {
        let server = try ServerFixture().server(fallback: Fixtures.bytes("gradient-rgba.png"))
        let response = await server.get("/square/missing.jpg")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/png")
        #expect(response.header("Cache-Control") == "public, max-age=60")
        let reason = try #require(response.header("X-Darkroom-Fallback"))
        #expect(reason.contains("missing.jpg") && reason.contains("no such file"), "\(reason)")
        let image = try Registry.standard.decode(response.body)
        #expect(image.width == 20 && image.height == 20)
    }
}
