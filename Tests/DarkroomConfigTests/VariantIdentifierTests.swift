import DarkroomConfig
import DarkroomCore
import Testing

@Suite("Variants with equal flattened chains and encoder settings share one identifier")
struct VariantIdentifierTests {
    @Test("two differently written variants with the same chain and encoding share an identifier")
    func sharedIdentifier() throws {
        let configuration = load(
            ("10-a.toml", """
                [variants.mono]
                filters = [{ filter = "grayscale" }, { filter = "scale", height = 10, width = 20 }]
                format = "jpeg"
                [variants.grey-base]
                filters = ["grayscale"]
                format = "jpg"
                quality = 80
                """),
            ("20-b.toml", """
                [variants.bw]
                base = "grey-base"
                filters = ["grayscale", "scale(width=20,height=10.0)"]
                progressive = false
                [variants.bw-hq]
                base = "bw"
                quality = 95
                [variants.bw-webp]
                base = "bw"
                format = "webp"
                """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        let mono = try #require(configuration.variant(named: "mono"))
        #expect(mono.identifier == "grayscale|scale(height=10,width=20)>jpeg(progressive=false,quality=80)")
        #expect(configuration.variantNamesByIdentifier[mono.identifier] == ["bw", "mono"])
        #expect(configuration.variantsSharingIdentifiers == [["bw", "mono"]])
        let hq = try #require(configuration.variant(named: "bw-hq"))
        let webp = try #require(configuration.variant(named: "bw-webp"))
        #expect(Set([mono.identifier, hq.identifier, webp.identifier]).count == 3)
        #expect(hq.identifier.hasSuffix(">jpeg(progressive=false,quality=95)"))
        #expect(webp.identifier.hasSuffix(">webp(lossless=false,quality=80)"))
    }

    @Test("consecutive duplicates of an idempotent filter collapse; a non-idempotent one's do not")
    func idempotentCollapse() throws {
        let configuration = load(("a.toml", """
            [variants.once]
            filters = ["grayscale"]
            [variants.twice]
            filters = ["grayscale", { filter = "grayscale" }]
            [variants.negatives]
            filters = ["invert", "invert"]
            """))
        let once = try #require(configuration.variant(named: "once"))
        let twice = try #require(configuration.variant(named: "twice"))
        #expect(twice.chain.filters.count == 1)
        #expect(twice.identifier == once.identifier)
        #expect(configuration.variant(named: "negatives")?.chain.identifier == "invert|invert")
    }

    @Test("the source's format has its own identifier, different from every explicit format's")
    func autoEncodingIdentifier() {
        #expect(VariantEncoding().identifier == "auto()")
        #expect(VariantEncoding(quality: 80).identifier == "auto(quality=80)")
        #expect(VariantEncoding(quality: 80, progressive: false, compression: 6, lossless: false, speed: 6).identifier
            == "auto(quality=80)")
        #expect(VariantEncoding(progressive: true, speed: 2).identifier == "auto(progressive=true,speed=2)")
        let explicit = ImageFormat.allCases.map { VariantEncoding(format: $0, quality: 80).identifier }
        #expect(!explicit.contains(VariantEncoding(quality: 80).identifier))
        #expect(VariantEncoding(format: .jpeg).identifier == VariantEncoding(format: .jpeg, quality: 80).identifier)
    }

    @Test("an auto-format variant's encoder options follow the source format")
    func optionsForSource() {
        let encoding = VariantEncoding(quality: 70, compression: 9)
        #expect(encoding.options(sourceFormat: .jpeg).identifier == "jpeg(progressive=false,quality=70)")
        #expect(encoding.options(sourceFormat: .png).identifier == "png(compression=9)")
        #expect(VariantEncoding(format: .avif).options(sourceFormat: .png).format == .avif)
    }
}
