import Darkroom
import DarkroomCore
import DarkroomServer
import Foundation
import Testing

// MARK: - WebP to clients that take it

@Suite("With WebP negotiation, clients accepting image/webp get WebP twins of JPEG and PNG variants")
struct WebPNegotiationTests {
    static let browserAccept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

    @Test("A JPEG variant comes as lossy WebP of the same size to a browser, as JPEG to others, both with Vary: Accept")
    func jpegVariant() async throws {
        let server = try ServerFixture().server(webP: true)
        let webp = await server.get("/thumb/gradient.jpg", accept: Self.browserAccept)
        #expect(webp.status == 200, "\(webp.text)")
        #expect(webp.header("Content-Type") == "image/webp")
        #expect(webp.header("Vary") == "Accept")
        #expect(try ImageFormat.detect(webp.body) == .webp)
        let image = try Registry.standard.decode(webp.body)
        #expect(image.width == 32 && image.height == 24)

        for accept in [nil, "image/jpeg,*/*", "image/webp;q=0"] as [String?] {
            let jpeg = await server.get("/thumb/gradient.jpg", accept: accept)
            #expect(jpeg.header("Content-Type") == "image/jpeg", "Accept: \(accept ?? "none")")
            #expect(jpeg.header("Vary") == "Accept")
            #expect(jpeg.header("ETag") != webp.header("ETag"))
        }
        let again = await server.get("/thumb/gradient.jpg", accept: "IMAGE/WEBP; q=0.5")
        #expect(again.header("X-Darkroom-Cache") == "memory")
        #expect(again.body == webp.body)
    }

    @Test("A PNG variant comes as lossless WebP: the same pixels and alpha as the PNG")
    func pngVariantIsLossless() async throws {
        let server = try ServerFixture().server(webP: true)
        let png = await server.get("/square/alpha.png")
        let webp = await server.get("/square/alpha.png", accept: "image/webp")
        #expect(png.header("Content-Type") == "image/png")
        #expect(webp.header("Content-Type") == "image/webp")
        let fromPNG = try Registry.standard.decode(png.body)
        let fromWebP = try Registry.standard.decode(webp.body)
        #expect(fromPNG.width == fromWebP.width && fromPNG.height == fromWebP.height)
        #expect(fromPNG.pixels == fromWebP.pixels)
    }

    @Test("Without negotiation every client gets the variant's own format and no Vary")
    func off() async throws {
        let server = try ServerFixture().server()
        let response = await server.get("/thumb/gradient.jpg", accept: Self.browserAccept)
        #expect(response.header("Content-Type") == "image/jpeg")
        #expect(response.header("Vary") == nil)
    }

    @Test("Twins exist only for JPEG and PNG variants, and cannot be named in a path")
    func twins() async throws {
        let negotiation = WebPNegotiation(variants: [
            RenderTarget(name: "a", chain: FilterChain([]), encoding: .init(format: .jpeg, quality: 70)),
            RenderTarget(name: "b", chain: FilterChain([]), encoding: .init(format: .png)),
            RenderTarget(name: "c", chain: FilterChain([]), encoding: .init(format: .avif)),
            RenderTarget(name: "d", chain: FilterChain([]), encoding: .init()),
        ])
        #expect(negotiation.twinTargets.map(\.encoding) == [.init(format: .webp, quality: 70), .init(format: .webp, lossless: true)])
        #expect(negotiation.negotiates("a") && negotiation.negotiates("b"))
        #expect(!negotiation.negotiates("c") && !negotiation.negotiates("d"))
        #expect(negotiation.variant(for: "c", accept: "image/webp") == "c")
        let server = try ServerFixture().server(webP: true)
        let twinName = try #require(negotiation.twinNames["a"]).replacingOccurrences(of: "a", with: "thumb")
        #expect(await server.get("/\(PercentEncoding.encode(twinName))/gradient.jpg").status == 400)
    }
}
