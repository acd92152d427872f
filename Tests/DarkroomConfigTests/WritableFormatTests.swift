import DarkroomConfig
import DarkroomCore
import Testing

@Suite("A format no registered encoder writes is an error at its line, not a failure at render time")
struct WritableFormatTests {
    /// What the standard registry writes (no TGA or HEIF encoder).
    static let writable: Set<ImageFormat> = [.jpeg, .png, .webp, .gif, .bmp, .tiff, .avif]

    func load(_ text: String) -> Configuration {
        ConfigLoader.load(sources: [ConfigSource(name: "20-x.toml", text: text)], filters: catalogue, writableFormats: Self.writable)
    }

    @Test("an unwritable format is reported at the format line with the writable ones, and the variant is left out")
    func unwritable() {
        let configuration = load("[variants.a]\nfilters = [\"grayscale\"]\nformat = \"tga\"\n")
        #expect(printed(configuration) == [
            "20-x.toml:3: format 'tga' cannot be written: no registered encoder writes it "
                + "(writable: jpeg, png, gif, webp, avif, tiff, bmp)"
        ])
        #expect(configuration.unresolvedVariants == ["a"])
    }

    @Test("aliases are judged by the format they name", arguments: ["heic", "HEIF", "icb"])
    func alias(name: String) {
        #expect(load("[variants.a]\nformat = \"\(name)\"\n").hasErrors)
    }

    @Test("writable formats and auto pass; a variant based on an unwritable one is left out too")
    func writableAndBased() {
        let configuration = load("""
            [variants.a]
            format = "jpg"
            [variants.b]
            format = "auto"
            [variants.c]
            format = "heif"
            [variants.d]
            base = "c"
            """)
        #expect(configuration.errors.count == 1)
        #expect(configuration.variantNames == ["a", "b"])
    }

    @Test("without writable formats (a library without a registry) every known format is accepted")
    func unchecked() {
        let configuration = ConfigLoader.load(sources: [ConfigSource(name: "a.toml", text: "[variants.a]\nformat = \"tga\"\n")], filters: catalogue)
        #expect(!configuration.hasErrors)
    }
}
