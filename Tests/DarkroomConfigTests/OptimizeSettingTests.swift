import DarkroomConfig
import DarkroomCore
import Testing

// MARK: - optimize = false

@Suite("A variant's optimize = false skips JPEG's optimal Huffman tables: parsed, inherited, in the identifier only when false")
struct OptimizeSettingTests {
    @Test("optimize = false reaches the encoder options and the identifier; optimize = true is the default's identifier")
    func parsed() throws {
        let configuration = load(("10-a.toml", """
            [variants.fast]
            filters = ["grayscale"]
            format = "jpeg"
            optimize = false
            [variants.optimized]
            filters = ["grayscale"]
            format = "jpeg"
            optimize = true
            [variants.plain]
            filters = ["grayscale"]
            format = "jpeg"
            """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        let fast = try #require(configuration.variant(named: "fast"))
        #expect(fast.identifier == "grayscale>jpeg(optimize=false,progressive=false,quality=80)")
        #expect(fast.encoding.options(sourceFormat: .png).optimizesCoding == false)
        let optimized = try #require(configuration.variant(named: "optimized"))
        let plain = try #require(configuration.variant(named: "plain"))
        #expect(optimized.identifier == plain.identifier)
        #expect(plain.encoding.options(sourceFormat: .png).optimizesCoding == nil)
    }

    @Test("a variant inherits optimize from its base and may turn it back on")
    func inherited() throws {
        let configuration = load(("10-a.toml", """
            [variants.base]
            filters = ["grayscale"]
            optimize = false
            [variants.child]
            base = "base"
            quality = 90
            [variants.strict]
            base = "base"
            optimize = true
            """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        #expect(configuration.variant(named: "child")?.identifier == "grayscale>auto(optimize=false,quality=90)")
        #expect(configuration.variant(named: "strict")?.identifier == "grayscale>auto()")
    }

    @Test("optimize must be a boolean, named in the error with its line")
    func wrongType() {
        let configuration = load(("20-x.toml", "[variants.a]\nfilters = []\noptimize = 1\n"))
        #expect(printed(configuration) == ["20-x.toml:3: 'optimize' must be true or false, not an integer"])
    }

    @Test("optimize with a format other than JPEG is a warning naming the setting")
    func ignoredForPNG() {
        let configuration = load(("20-x.toml", "[variants.a]\nfilters = []\nformat = \"png\"\noptimize = false\n"))
        let messages = printed(configuration)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("'optimize' does not apply to png output and is ignored") == true, "\(messages)")
    }

    @Test("the identifier syntax parses optimize, so every printed identifier renders as listed")
    func identifierSyntax() throws {
        let encoding = try VariantEncoding(parsing: "jpeg(optimize=false,quality=85)")
        #expect(encoding.optimize == false)
        #expect(encoding.identifier == "jpeg(optimize=false,progressive=false,quality=85)")
        #expect(try VariantEncoding(parsing: "auto(optimize=false)").identifier == "auto(optimize=false)")
        #expect(try VariantEncoding(parsing: "auto(optimize=true)").identifier == "auto()")
        #expect(try VariantEncoding(parsing: "jpeg(optimize=true)").identifier == "jpeg(progressive=false,quality=80)")
        #expect(throws: DarkroomError.self) { try VariantEncoding(parsing: "jpeg(optimize=sometimes)") }
    }
}
