import DarkroomCore
import DarkroomServer
import Testing

// MARK: - Signatures

@Suite("Signed paths: imgproxy's HMAC-SHA256 scheme, checked before any work")
struct SignedPathTests {
    // Signatures computed independently with Python's hmac and base64 modules.
    @Test("Signatures match an independent HMAC-SHA256 implementation")
    func knownVectors() throws {
        let signer = try URLSigner(
            hexKey: "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881",
            hexSalt: "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5")
        let path = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
        #expect(signer.signature(for: path) == "90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40")
        let unsalted = try URLSigner(hexKey: "00112233", hexSalt: "")
        #expect(unsalted.signature(for: "/thumbnail/photos/cat.jpg") == "0PrjCNn4unNN8jtvEJceR_XzksY9lvnRZIpR_Kuo07s")
    }

    @Test("A key or salt that is not hex is refused without echoing it")
    func badKeys() {
        #expect(throws: DarkroomError.self) { try URLSigner(hexKey: "xyz1", hexSalt: "") }
        #expect(throws: DarkroomError.self) { try URLSigner(hexKey: "", hexSalt: "00") }
        #expect(throws: DarkroomError.self) { try URLSigner(hexKey: "001", hexSalt: "") }
        do {
            _ = try URLSigner(hexKey: "s3cretvalue!", hexSalt: "")
        } catch {
            #expect(!String(describing: error).contains("s3cret"))
        }
    }

    @Test("A signed server renders signed paths and refuses unsigned, wrong or re-targeted ones")
    func signedServer() async throws {
        let signer = try URLSigner(hexKey: "a1b2c3d4", hexSalt: "0f0f")
        let server = try ServerFixture().server(signer: signer)
        let path = "/thumb/gradient.jpg"
        let signed = await server.get("/\(signer.signature(for: path))\(path)")
        #expect(signed.status == 200, "\(signed.text)")

        // Sent without a signature: said so, not "the signature does not match the path /gradient.jpg".
        let unsigned = await server.get(path)
        #expect(unsigned.status == 403)
        #expect(unsigned.text.contains("signed paths only") && unsigned.text.contains("'thumb' is not one"), "\(unsigned.text)")
        #expect(unsigned.text.contains("/SIGNATURE/VARIANT/SOURCE"))
        let wrong = await server.get("/\(String(repeating: "A", count: 43))\(path)")
        #expect(wrong.status == 403)
        #expect(wrong.text.contains("signature does not match"), "\(wrong.text)")
        let retargeted = await server.get("/\(signer.signature(for: path))/square/gradient.jpg")
        #expect(retargeted.status == 403)
        let bare = await server.get("/\(signer.signature(for: path))")
        #expect(bare.status == 403)
        #expect(bare.text.contains("/SIGNATURE/VARIANT/SOURCE"))
        #expect(await server.get("/health").status == 200)
    }
}

// MARK: - Routes

@Suite("Request paths name a variant and a source")
struct ImageServerRouteTests {
    @Test("Paths, percent-encoded URLs and URLs whose slashes a proxy merged")
    func sources() throws {
        #expect(try ImageServerRoute(path: "/thumb/a/b.jpg", signer: nil) == .image(variant: "thumb", source: "a/b.jpg"))
        #expect(
            try ImageServerRoute(path: "/thumb/https%3A%2F%2F127.0.0.1%2Fa.jpg%3Fx%3D1", signer: nil)
                == .image(variant: "thumb", source: "https://127.0.0.1/a.jpg?x=1"))
        #expect(
            try ImageServerRoute(path: "/thumb/https://127.0.0.1/a.jpg", signer: nil)
                == .image(variant: "thumb", source: "https://127.0.0.1/a.jpg"))
        #expect(
            try ImageServerRoute(path: "/thumb/http:/127.0.0.1/a.jpg", signer: nil)
                == .image(variant: "thumb", source: "http://127.0.0.1/a.jpg"))
        #expect(try ImageServerRoute(path: "/health", signer: nil) == .health)
        #expect(try ImageServerRoute(path: "/my%20variant/x.png", signer: nil) == .image(variant: "my variant", source: "x.png"))
    }

    @Test("Percent-encoding round-trips any source")
    func encodingRoundTrips() {
        for source in ["a b/ç.jpg", "https://127.0.0.1/a.jpg?x=1&y=%20#z", "100%.png", "~user/-._"] {
            #expect(PercentEncoding.decode(PercentEncoding.encode(source)) == source)
            #expect(PercentEncoding.decode(PercentEncoding.encode(source, keepingSlashes: false)) == source)
        }
        #expect(PercentEncoding.encode("https://127.0.0.2/a b") == "https%3A//127.0.0.2/a%20b")
        #expect(PercentEncoding.decode("%e2%82%ac") == "€")
        #expect(PercentEncoding.decode("%ff") == nil)
        #expect(PercentEncoding.decode("%4") == nil)
    }
}

// MARK: - ETags

@Suite("ETags and If-None-Match")
struct EntityTagTests {
    @Test("Weak comparison over a list; * matches; other tags do not")
    func matching() {
        let tag = EntityTag(body: Array("hello".utf8))
        #expect(tag.value.count == 34 && tag.value.hasPrefix("\"") && tag.value.hasSuffix("\""))
        #expect(tag.matches(ifNoneMatch: tag.value))
        #expect(tag.matches(ifNoneMatch: "W/\(tag.value)"))
        #expect(tag.matches(ifNoneMatch: "\"a\" ,  \(tag.value) "))
        #expect(tag.matches(ifNoneMatch: "*"))
        #expect(!tag.matches(ifNoneMatch: "\"a\", \"b\""))
        #expect(!tag.matches(ifNoneMatch: ""))
        #expect(EntityTag(body: Array("hellp".utf8)) != tag)
    }
}
