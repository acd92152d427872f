import DarkroomConfig
import DarkroomCore
import Testing

// MARK: - strip = false

@Suite("A variant's strip = false keeps metadata: parsed, inherited and in the identifier only when false")
struct StripSettingTests {
    @Test("strip = false reaches the encoder options and the identifier; strip = true is the default's identifier")
    func parsed() throws {
        let configuration = load(("10-a.toml", """
            [variants.kept]
            filters = ["grayscale"]
            format = "jpeg"
            strip = false
            [variants.stripped]
            filters = ["grayscale"]
            format = "jpeg"
            strip = true
            [variants.plain]
            filters = ["grayscale"]
            format = "jpeg"
            """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        let kept = try #require(configuration.variant(named: "kept"))
        #expect(kept.identifier == "grayscale>jpeg(progressive=false,quality=80,strip=false)")
        #expect(kept.encoding.options(sourceFormat: .png).keepsMetadata)
        let stripped = try #require(configuration.variant(named: "stripped"))
        let plain = try #require(configuration.variant(named: "plain"))
        #expect(stripped.identifier == plain.identifier)
        #expect(!stripped.encoding.options(sourceFormat: .png).keepsMetadata)
    }

    @Test("a variant inherits strip from its base and may turn it back on")
    func inherited() throws {
        let configuration = load(("10-a.toml", """
            [variants.base]
            filters = ["grayscale"]
            strip = false
            [variants.child]
            base = "base"
            quality = 90
            [variants.strict]
            base = "base"
            strip = true
            """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        #expect(configuration.variant(named: "child")?.identifier == "grayscale>auto(quality=90,strip=false)")
        #expect(configuration.variant(named: "strict")?.identifier == "grayscale>auto()")
    }

    @Test("strip must be a boolean, named in the error with its line")
    func wrongType() {
        let configuration = load(("20-x.toml", "[variants.a]\nfilters = []\nstrip = \"no\"\n"))
        #expect(printed(configuration) == ["20-x.toml:3: 'strip' must be true or false, not a string"])
    }

    @Test("strip = false with a format that holds no metadata is a warning naming the setting")
    func ignoredForGIF() {
        let configuration = load(("20-x.toml", "[variants.a]\nfilters = []\nformat = \"gif\"\nstrip = false\n"))
        let messages = printed(configuration)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("'strip' does not apply to gif output and is ignored") == true, "\(messages)")
    }

    @Test("the identifier syntax parses strip, so every printed identifier renders as listed")
    func identifierSyntax() throws {
        let encoding = try VariantEncoding(parsing: "webp(lossless=true,strip=false)")
        #expect(encoding.strip == false)
        #expect(encoding.identifier == "webp(lossless=true,strip=false)")
        #expect(try VariantEncoding(parsing: "auto(strip=false)").identifier == "auto(strip=false)")
        #expect(try VariantEncoding(parsing: "auto(strip=true)").identifier == "auto()")
        #expect(throws: DarkroomError.self) { try VariantEncoding(parsing: "jpeg(strip=maybe)") }
    }
}
