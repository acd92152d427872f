import DarkroomConfig
import DarkroomCore
import Testing

@Suite("A variant with a base composes the base's flattened chain and inherits its encoder settings")
struct BaseCompositionTests {
    @Test("the chain is the base chain followed by the variant's own filters")
    func chainComposition() throws {
        let configuration = load(("20-avatars.toml", """
            [variants.avatar]
            description = "grey avatar"
            filters = [{ filter = "scale", width = 128, height = 128 }, "grayscale"]
            format = "png"

            [variants.avatar-small]
            base = "avatar"
            filters = [{ filter = "scale", width = 64, height = 64 }]
            """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        let small = try #require(configuration.variant(named: "avatar-small"))
        #expect(small.base == "avatar")
        #expect(small.description == nil)
        #expect(small.chain.identifier == "scale(height=128,width=128)|grayscale|scale(height=64,width=64)")
        #expect(small.encoding == VariantEncoding(format: .png))
    }

    @Test("bases resolve through several levels and across files, whatever the reading order")
    func multiLevelAcrossFiles() throws {
        let configuration = load(
            ("10-derived.toml", """
                [variants.c]
                base = "b"
                filters = ["invert"]
                quality = 70
                """),
            ("20-roots.toml", """
                [variants.a]
                filters = ["grayscale"]
                format = "webp"
                quality = 90
                [variants.b]
                base = "a"
                filters = [{ filter = "brightness", amount = 0.5 }]
                lossless = false
                """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        let c = try #require(configuration.variant(named: "c"))
        #expect(c.chain.identifier == "grayscale|brightness(amount=0.5)|invert")
        #expect(c.encoding == VariantEncoding(format: .webp, quality: 70, lossless: false))
        #expect(c.identifier == "grayscale|brightness(amount=0.5)|invert>webp(lossless=false,quality=70)")
    }

    @Test("format = \"auto\" goes back to the source's format even when the base names one")
    func autoFormatOverridesBase() throws {
        let configuration = load(("a.toml", """
            [variants.jpeg]
            format = "jpg"
            quality = 60
            [variants.any]
            base = "jpeg"
            format = "auto"
            """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        let any = try #require(configuration.variant(named: "any"))
        #expect(any.encoding == VariantEncoding(quality: 60))
        #expect(any.encoding.options(sourceFormat: .webp) == EncodeOptions(format: .webp, quality: 60))
        #expect(configuration.variant(named: "jpeg")?.encoding.format == .jpeg)
    }

    @Test("an idempotent filter repeated where base and own filters meet collapses")
    func collapseAtTheJunction() throws {
        let configuration = load(("a.toml", """
            [variants.bw]
            filters = ["grayscale"]
            [variants.bw-again]
            base = "bw"
            filters = ["grayscale", "invert", "invert"]
            """))
        let again = try #require(configuration.variant(named: "bw-again"))
        #expect(again.chain.identifier == "grayscale|invert|invert")
    }
}
