import DarkroomConfig
import DarkroomCore
import Testing

@Suite("A variant's filters may be inline tables, spec strings or [[table arrays]]")
struct FilterFormsTests {
    @Test("inline tables and spec strings build the same chain")
    func inlineTablesAndSpecStrings() throws {
        let configuration = load(("20-avatars.toml", """
            # filters.d/20-avatars.toml
            [variants.avatar]
            description = "64 px grey avatar"
            filters = [
              { filter = "scale", width = 64, height = 64 },
              "grayscale",
              "brightness(amount=0.25)",
            ]
            format = "png"

            [variants.same]
            filters = ["scale(height=64,width=64)", { filter = "grayscale" }, { filter = "brightness", amount = 0.25 }]
            format = "png"
            """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        let avatar = try #require(configuration.variant(named: "avatar"))
        #expect(avatar.description == "64 px grey avatar")
        #expect(avatar.chain.identifier == "scale(height=64,width=64)|grayscale|brightness(amount=0.25)")
        #expect(avatar.encoding == VariantEncoding(format: .png))
        #expect(avatar.identifier == "scale(height=64,width=64)|grayscale|brightness(amount=0.25)>png(compression=6)")
        let same = try #require(configuration.variant(named: "same"))
        #expect(same.identifier == avatar.identifier)
        #expect(avatar.definedAt == SourceLocation(file: "20-avatars.toml", line: 2, column: 1))
    }

    @Test("the [[variants.NAME.filters]] table-array form keeps its order")
    func tableArrayForm() throws {
        let configuration = load(("10-mono.toml", """
            [variants.mono]
            format = "jpeg"
            quality = 90

            [[variants.mono.filters]]
            filter = "invert"

            [[variants.mono.filters]]
            filter = "scale"
            width = 8
            height = 4
            """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        let mono = try #require(configuration.variant(named: "mono"))
        #expect(mono.chain.identifier == "invert|scale(height=4,width=8)")
        #expect(mono.encoding.identifier == "jpeg(progressive=false,quality=90)")
    }

    @Test("the resolved chain is made of the catalogue's real filters")
    func chainAppliesRealFilters() throws {
        let configuration = load(("a.toml", """
            [variants.small-negative]
            filters = ["invert", { filter = "scale", width = 1, height = 1 }]
            """))
        let variant = try #require(configuration.variant(named: "small-negative"))
        let source = try Image(width: 2, height: 2, pixels: [10, 20, 30, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
        let output = try variant.chain.apply(to: source)
        #expect(output.size == PixelSize(width: 1, height: 1))
        #expect(output.pixel(x: 0, y: 0) == RGBA(r: 245, g: 235, b: 225, a: 255))
    }

    @Test("a variant without filters or format passes the source through in its own format")
    func emptyVariant() throws {
        let configuration = load(("a.toml", "[variants.original]\n"))
        let original = try #require(configuration.variant(named: "original"))
        #expect(original.chain.isEmpty)
        #expect(original.encoding.format == nil)
        #expect(original.identifier == ">auto()")
        #expect(original.encoding.options(sourceFormat: .gif) == EncodeOptions(format: .gif))
    }

    @Test("an array-element spec string with escaped text and spaces parses")
    func specStringWithSpaces() throws {
        let configuration = load(("a.toml", "[variants.b]\nfilters = [ \" brightness( amount = -0.5 ) \" ]\n"))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        #expect(configuration.variant(named: "b")?.chain.identifier == "brightness(amount=-0.5)")
    }
}
