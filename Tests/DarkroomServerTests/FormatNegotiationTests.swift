import Darkroom
import DarkroomCore
import DarkroomServer
import Foundation
import Testing

// MARK: - WebP and AVIF to clients that take them

@Suite("With format negotiation, clients get AVIF or WebP twins of JPEG and PNG variants as their Accept says")
struct FormatNegotiationTests {
    static let browserAccept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

    /// `response` is the 32×24 `thumb` of gradient.jpg in `format`, varying with `Accept`.
    func expectThumbnail(_ response: ImageServerResponse, in format: ImageFormat, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        #expect(response.status == 200, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == format.mimeType, sourceLocation: sourceLocation)
        #expect(response.header("Vary") == "Accept", sourceLocation: sourceLocation)
        #expect(try ImageFormat.detect(response.body) == format, sourceLocation: sourceLocation)
        let image = try Registry.standard.decode(response.body)
        #expect(image.width == 32 && image.height == 24, sourceLocation: sourceLocation)
    }

    @Test("A JPEG variant comes as lossy WebP of the same size to a browser, as JPEG to others, both with Vary: Accept")
    func jpegVariant() async throws {
        let server = try ServerFixture().server(webP: true)
        let webp = await server.get("/thumb/gradient.jpg", accept: Self.browserAccept)
        try expectThumbnail(webp, in: .webp)

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

    @Test("Twins exist only for JPEG and PNG variants, AVIF only for JPEG, and cannot be named in a path")
    func twins() async throws {
        let negotiation = FormatNegotiation(variants: [
            RenderTarget(name: "a", chain: FilterChain([]), encoding: .init(format: .jpeg, quality: 70)),
            RenderTarget(name: "b", chain: FilterChain([]), encoding: .init(format: .png)),
            RenderTarget(name: "c", chain: FilterChain([]), encoding: .init(format: .avif)),
            RenderTarget(name: "d", chain: FilterChain([]), encoding: .init()),
        ], offering: [.webp, .avif])
        #expect(negotiation.twinTargets.map(\.encoding) == [
            .init(format: .avif, quality: 57), .init(format: .webp, quality: 70), .init(format: .webp, lossless: true),
        ])
        #expect(negotiation.negotiates("a") && negotiation.negotiates("b"))
        #expect(!negotiation.negotiates("c") && !negotiation.negotiates("d"))
        #expect(negotiation.variant(for: "c", accept: "image/webp") == "c")
        let webPOnly = FormatNegotiation(variants: [
            RenderTarget(name: "a", chain: FilterChain([]), encoding: .init(format: .jpeg)),
        ], offering: [.webp])
        #expect(webPOnly.twinTargets.map(\.encoding) == [.init(format: .webp)])
        let server = try ServerFixture().server(webP: true)
        let twinName = try #require(negotiation.twinNames["a"]?.last?.name).replacingOccurrences(of: "a", with: "thumb")
        #expect(await server.get("/\(PercentEncoding.encode(twinName))/gradient.jpg").status == 400)
    }

    @Test("AVIF goes to clients listing image/avif, WebP to those listing only image/webp, JPEG to the rest")
    func avifBeforeWebP() async throws {
        let server = try ServerFixture().server(webP: true, avif: true)
        let avif = await server.get("/thumb/gradient.jpg", accept: Self.browserAccept)
        try expectThumbnail(avif, in: .avif)

        let webp = await server.get("/thumb/gradient.jpg", accept: "image/avif;q=0,image/webp")
        #expect(webp.header("Content-Type") == "image/webp")
        let jpeg = await server.get("/thumb/gradient.jpg", accept: "image/*,*/*")
        #expect(jpeg.header("Content-Type") == "image/jpeg")
        #expect(Set([avif.header("ETag"), webp.header("ETag"), jpeg.header("ETag")]).count == 3)

        // A PNG variant has no AVIF twin: a browser gets its lossless WebP.
        let png = await server.get("/square/alpha.png", accept: Self.browserAccept)
        #expect(png.header("Content-Type") == "image/webp")
        let avifOnly = try ServerFixture().server(avif: true)
        #expect(await avifOnly.get("/square/alpha.png", accept: Self.browserAccept).header("Content-Type") == "image/png")
        #expect(await avifOnly.get("/thumb/gradient.jpg", accept: "image/webp").header("Content-Type") == "image/jpeg")
    }
}
