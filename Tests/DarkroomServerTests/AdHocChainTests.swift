import Darkroom
import DarkroomCore
import DarkroomServer
import DarkroomTestSupport
import Testing

// MARK: - Ad-hoc chains in signed paths

@Suite("signed paths may carry an ad-hoc chain, parsed with the filters' schema, canonical, and bounded")
struct AdHocChainTests {
    static let signer = try! URLSigner(hexKey: "943b421c9eb07c83", hexSalt: "520f986b998545b4")

    @Test("a signed chain renders: the size and format it asks for, from the helper's path")
    func signedChainRenders() async throws {
        let server = try ServerFixture().server(signer: Self.signer)
        let path = Self.signer.signedPath(chain: "aspect-fit(width=16,height=16)|grayscale>png(compression=9)", source: "gradient.jpg")
        #expect(path.contains("/chain:aspect-fit(width=16,height=16)%7Cgrayscale%3Epng(compression=9)/gradient.jpg"), "\(path)")
        let answer = await server.get(path)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.header("Content-Type") == "image/png")
        let image = try Registry.standard.decode(answer.body)
        #expect(image.width == 16 && image.height == 12)

        // Without encoder settings the output keeps the source's format.
        let kept = await server.get(Self.signer.signedPath(chain: "aspect-fill(width=10,height=10)", source: "sub/deep.jpg"))
        #expect(kept.status == 200 && kept.header("Content-Type") == "image/jpeg", "\(kept.text)")

        // A signature made for another chain does not pass.
        let other = Self.signer.signedPath(chain: "grayscale", source: "gradient.jpg")
        let forged = String(other.prefix(44)) + "/chain:aspect-fit(width=2000,height=2000)/gradient.jpg"
        #expect(await server.get(forged).status == 403)
    }

    @Test("the same chain as a preset, its arguments in another order, is the preset's cache entry")
    func canonicalChainSharesThePreset() async throws {
        let server = try ServerFixture().server(signer: Self.signer)
        let preset = await server.get(Self.signer.signedPath(variant: "thumb", source: "gradient.jpg"))
        #expect(preset.status == 200 && preset.header("X-Darkroom-Cache") == "rendered", "\(preset.text)")
        // thumb is aspect-fit 32×32 (the filter's defaults left out) into JPEG quality 80.
        let chain = await server.get(Self.signer.signedPath(chain: "aspect-fit(width=32,height=32)>jpeg(quality=80)", source: "gradient.jpg"))
        #expect(chain.status == 200, "\(chain.text)")
        #expect(chain.header("X-Darkroom-Cache") == "memory")
        #expect(chain.body == preset.body)
    }

    @Test("bad chains are 400 naming what is wrong; an output over the pixel limit is 422")
    func badChains() async throws {
        let server = try ServerFixture().server(signer: Self.signer)
        func status(_ chain: String) async -> (Int, String) {
            let answer = await server.get(Self.signer.signedPath(chain: chain, source: "gradient.jpg"))
            return (answer.status, answer.text)
        }
        let unknown = await status("aspect-fitt(width=10,height=10)")
        #expect(unknown.0 == 400 && unknown.1.contains("aspect-fit"), "\(unknown.1)")
        let badArgument = await status("aspect-fit(width=-3,height=10)")
        #expect(badArgument.0 == 400 && badArgument.1.contains("width"), "\(badArgument.1)")
        let empty = await status("grayscale||grayscale")
        #expect(empty.0 == 400 && empty.1.contains("empty"), "\(empty.1)")
        let long = await status(Array(repeating: "grayscale", count: 17).joined(separator: "|"))
        #expect(long.0 == 400 && long.1.contains("at most 16"), "\(long.1)")
        let huge = await status(String(repeating: "grayscale|", count: 300) + "grayscale")
        #expect(huge.0 == 400 && huge.1.contains("at most 2048"), "\(huge.1)")
        let unwritable = await status("grayscale>xyz(quality=3)")
        #expect(unwritable.0 == 400, "\(unwritable.1)")
        let tooManyPixels = await status("aspect-fit(width=16384,height=16384,upscale=true)")
        #expect(tooManyPixels.0 == 422, "\(tooManyPixels.1)")
    }

    @Test("without signing, chains are refused unless allowed; presets still work")
    func unsigned() async throws {
        let fixture = try ServerFixture()
        let closed = try fixture.server()
        let refused = await closed.get("/chain:grayscale/gradient.jpg")
        #expect(refused.status == 403 && refused.text.contains("ad-hoc chains are off"), "\(refused.text)")
        #expect(await closed.get("/thumb/gradient.jpg").status == 200)

        let open = try fixture.server(unsignedChains: true)
        let answer = await open.get("/chain:aspect-fit(width=8,height=8)%7Cgrayscale%3Ewebp(quality=50)/gradient.jpg")
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/webp", "\(answer.text)")
    }
}
