import Darkroom
import DarkroomCore
import DarkroomServer
import Testing

// MARK: - Memory hits without a task

@Suite("A memory hit is answered without suspending, exactly as the full path answers it; anything else is left to it")
struct ImmediateResponseTests {
    /// The status, headers and body of `response`, comparable.
    func parts(_ response: ImageServerResponse) -> (Int, [String], [UInt8]) {
        (response.status, response.headers.map { "\($0.name): \($0.value)" }, response.body)
    }

    @Test("a miss is left to respond(to:); once rendered, GET, HEAD and If-None-Match hits match respond(to:)'s answers")
    func hitsMatchTheFullPath() async throws {
        let test = try ServerFixture().server()
        let server = test.server
        let get = ImageServerRequest(method: "GET", path: "/thumb/gradient.jpg?v=1")
        #expect(server.immediateResponse(to: get) == nil)
        let rendered = await server.respond(to: get)
        #expect(rendered.status == 200 && rendered.header("X-Darkroom-Cache") == "rendered")

        let hit = try #require(server.immediateResponse(to: get))
        let full = await server.respond(to: get)
        #expect(parts(hit) == parts(full))
        #expect(hit.header("X-Darkroom-Cache") == "memory" && hit.body == rendered.body)
        #expect(hit.header("ETag") == rendered.header("ETag"))

        let head = ImageServerRequest(method: "HEAD", path: "/thumb/gradient.jpg")
        let headHit = try #require(server.immediateResponse(to: head))
        let headFull = await server.respond(to: head)
        #expect(parts(headHit) == parts(headFull) && headHit.body.isEmpty)

        let tag = try #require(rendered.header("ETag"))
        let conditional = ImageServerRequest(method: "GET", path: "/thumb/gradient.jpg", ifNoneMatch: "W/\(tag)")
        let notModified = try #require(server.immediateResponse(to: conditional))
        let conditionalFull = await server.respond(to: conditional)
        #expect(notModified.status == 304 && parts(notModified) == parts(conditionalFull))
        withExtendedLifetime(test) {}
    }

    @Test("other methods, unknown variants, missing files, refused sources and bad paths are left to respond(to:)")
    func othersAreLeft() async throws {
        let test = try ServerFixture().server(remote: false)
        let server = test.server
        _ = await server.respond(to: ImageServerRequest(method: "GET", path: "/thumb/gradient.jpg"))
        for (method, path) in [
            ("POST", "/thumb/gradient.jpg"), ("DELETE", "/thumb/gradient.jpg"), ("GET", "/nope/gradient.jpg"),
            ("GET", "/thumb/missing.jpg"), ("GET", "/thumb/escape.jpg"), ("GET", "/thumb/http://127.0.0.1:9/a.jpg"),
            ("GET", "/thumb"), ("GET", "/health"), ("GET", "/thumb/%ZZ.jpg"),
        ] {
            let request = ImageServerRequest(method: method, path: path)
            #expect(server.immediateResponse(to: request) == nil, "\(method) \(path)")
            let full = await server.respond(to: request)
            #expect(full.status != 200 || path == "/health", "\(method) \(path)")
        }
        withExtendedLifetime(test) {}
    }

    @Test("a signed server checks the signature first; a negotiated hit says Vary: Accept as the full path does")
    func signaturesAndNegotiation() async throws {
        let signer = try URLSigner(hexKey: "943b421c9eb07c83", hexSalt: "520f986b998545b4")
        let signed = try ServerFixture().server(signer: signer)
        let good = ImageServerRequest(method: "GET", path: signer.signedPath(variant: "thumb", source: "gradient.jpg"))
        _ = await signed.server.respond(to: good)
        #expect(signed.server.immediateResponse(to: good)?.status == 200)
        let unsigned = ImageServerRequest(method: "GET", path: "/thumb/gradient.jpg")
        #expect(signed.server.immediateResponse(to: unsigned) == nil)
        let refused = await signed.server.respond(to: unsigned)
        #expect(refused.status == 403)

        let negotiating = try ServerFixture().server(webP: true)
        let browser = ImageServerRequest(method: "GET", path: "/thumb/gradient.jpg", accept: "image/webp,*/*")
        _ = await negotiating.server.respond(to: browser)
        let hit = try #require(negotiating.server.immediateResponse(to: browser))
        #expect(hit.header("Vary") == "Accept" && hit.header("Content-Type") == "image/webp")
        let negotiated = await negotiating.server.respond(to: browser)
        #expect(parts(hit) == parts(negotiated))
        withExtendedLifetime((signed, negotiating)) {}
    }
}
