@testable import DarkroomConfig
import DarkroomCore
import Testing

@Suite("Every configuration error is reported with its file and the line of the offending element")
struct DiagnosticTests {
    /// Loads one file and returns what the CLI would print.
    private func errors(_ text: String, file: String = "20-x.toml") -> [String] {
        printed(load((file, text)))
    }

    @Test("a TOML syntax error is reported at TOMLKit's line and column")
    func syntaxError() throws {
        let configuration = load(("10-ok.toml", "[variants.ok]\n"), ("20-bad.toml", "[variants.a]\nfilters = [\"grayscale\"\nformat = \"png\"\n"))
        let diagnostic = try #require(configuration.diagnostics.first)
        #expect(configuration.diagnostics.count == 1)
        #expect(diagnostic.file == "20-bad.toml")
        #expect(diagnostic.line == 3)
        #expect(diagnostic.column != nil)
        #expect(diagnostic.message.hasPrefix("TOML syntax error: "))
        #expect(configuration.variantNames == ["ok"])
        #expect(configuration.files == ["10-ok.toml", "20-bad.toml"])
    }

    @Test("a NUL byte, which would cut the text short for the TOML parser, is an error at its line")
    func nulByte() {
        #expect(errors("[variants.a]\nfilters = []\u{0}\n[variants.b]\n") == ["20-x.toml:2: file contains a NUL byte"])
    }

    @Test("an unknown filter names the nearest known one")
    func unknownFilter() {
        #expect(errors("[variants.a]\nfilters = [\n  \"invert\",\n  { filter = \"grayscal\" },\n]\n")
            == ["20-x.toml:4: unknown filter 'grayscal' (did you mean 'grayscale'?)"])
        #expect(errors("[variants.a]\nfilters = [\"sepia\"]\n")
            == ["20-x.toml:2: unknown filter 'sepia'; known filters: brightness, grayscale, invert, scale"])
    }

    @Test("a bad argument is reported at its own line with the schema's message")
    func badArgument() {
        let text = """
            [variants.a]
            [[variants.a.filters]]
            filter = "scale"
            width = 0
            height = 64
            """
        #expect(errors(text) == ["20-x.toml:4: invalid scale argument 'width' '0': expected an integer 1…16384 px"])
        #expect(errors("[variants.a]\nfilters = [{ filter = \"scale\", width = 10, heigth = 5 }]\n") == [
            "20-x.toml:2: filter 'scale' is missing its required argument 'height' (an integer 1…16384 px)",
            "20-x.toml:2: invalid scale argument 'heigth': expected one of width, height (did you mean 'height'?)",
        ])
        #expect(errors("[variants.a]\nfilters = [\"brightness(amount=3)\"]\n")
            == ["20-x.toml:2: invalid brightness argument 'amount' '3': expected a number -1…1"])
        #expect(errors("[variants.a]\nfilters = [\"scale(width=1,width=2,height=3)\"]\n")
            == ["20-x.toml:2: invalid scale argument 'width' '2': expected to be given once"])
    }

    @Test("a missing required argument names the argument and what it expects")
    func missingArgument() {
        #expect(errors("[variants.a]\nfilters = [\n  \"grayscale\",\n  \"scale\",\n]\n") == [
            "20-x.toml:4: filter 'scale' is missing its required argument 'width' (an integer 1…16384 px)",
            "20-x.toml:4: filter 'scale' is missing its required argument 'height' (an integer 1…16384 px)",
        ])
    }

    @Test("an unknown variant key names the nearest known one")
    func unknownVariantKey() {
        #expect(errors("[variants.a]\nfilters = []\nfromat = \"png\"\n") == [
            "20-x.toml:3: unknown key 'fromat' in variant 'a' (did you mean 'format'?); "
                + "expected one of description, base, filters, format, quality, progressive, compression, lossless, speed, strip, optimize"
        ])
    }

    @Test("wrong types: filters not an array, an entry without 'filter', a non-string base")
    func wrongTypes() {
        #expect(errors("[variants.a]\nfilters = \"grayscale\"\n")
            == ["20-x.toml:2: 'filters' of variant 'a' must be an array of filters, not a string"])
        #expect(errors("[variants.a]\nfilters = [\n  { width = 3 },\n]\n")
            == ["20-x.toml:3: a filter of variant 'a' has no 'filter' key naming the filter"])
        #expect(errors("[variants.a]\nfilters = [42]\n") == [
            "20-x.toml:2: a filter of variant 'a' must be a table with a 'filter' key or a spec string such as "
                + "\"blur(sigma=2)\", not an integer"
        ])
        #expect(errors("[variants.a]\n\nbase = 3\n")
            == ["20-x.toml:3: 'base' of variant 'a' must be a string naming a variant, not an integer"])
        #expect(errors("[variants.a]\nfilters = [{ filter = \"scale\", width = [1], height = 2 }]\n")
            == ["20-x.toml:2: scale argument 'width' must be a number, a boolean or a string, not an array"])
        #expect(errors("[variants.a]\nfilters = [{ filter = 7 }]\ndescription = false\n") == [
            "20-x.toml:2: 'filter' must be a string naming a filter, not an integer",
            "20-x.toml:3: 'description' of variant 'a' must be a string, not a boolean",
        ])
        #expect(errors("[variants.\"my avatar\"]\n") == ["20-x.toml:1: variant name 'my avatar' must be letters, digits, '-' and '_'"])
        #expect(errors("variants = 3\n") == ["20-x.toml:1: 'variants' must be a table of [variants.NAME] sections, not an integer"])
        #expect(errors("[variants]\na = \"grayscale\"\n")
            == ["20-x.toml:2: variant 'a' must be a table ([variants.a]), not a string"])
    }

    @Test("bad encoder settings: unknown format with the list, out-of-range values, wrong types")
    func badEncoderSettings() {
        #expect(errors("[variants.a]\nformat = \"jpeg2000\"\n")
            == ["20-x.toml:2: unknown format 'jpeg2000'; expected one of auto, jpeg, png, gif, webp, avif, heif, tiff, bmp, tga"])
        #expect(errors("[variants.a]\nformat = \"pgn\"\n") == [
            "20-x.toml:2: unknown format 'pgn' (did you mean 'png'?); "
                + "expected one of auto, jpeg, png, gif, webp, avif, heif, tiff, bmp, tga"
        ])
        #expect(errors("[variants.a]\nformat = \"jpeg\"\nquality = 500\n")
            == ["20-x.toml:3: invalid quality '500': expected an integer 1…100"])
        #expect(errors("[variants.a]\nformat = \"png\"\ncompression = 10\n")
            == ["20-x.toml:3: invalid compression level '10': expected an integer 0…9"])
        #expect(errors("[variants.a]\nprogressive = \"yes\"\nspeed = 1.5\n") == [
            "20-x.toml:2: 'progressive' must be true or false, not a string",
            "20-x.toml:3: 'speed' must be an integer, not a number",
        ])
    }

    @Test("a whole number written as a float is that integer in encoder settings, as in filter arguments")
    func wholeFloatSettings() throws {
        let configuration = load(("20-x.toml", "[variants.a]\nformat = \"jpeg\"\nquality = 80.0\n[variants.b]\nformat = \"jpeg\"\nquality = 8e1\n"))
        #expect(printed(configuration).isEmpty)
        #expect(configuration.variant(named: "a")?.encoding.identifier == "jpeg(progressive=false,quality=80)")
        #expect(configuration.variant(named: "b")?.identifier == configuration.variant(named: "a")?.identifier)
        #expect(errors("[variants.a]\nformat = \"jpeg\"\nquality = 1e300\n")
            == ["20-x.toml:3: 'quality' must be an integer, not a number"])
    }

    @Test("a setting that does not apply to the explicit format is a warning, and the variant resolves")
    func ignoredSettingWarning() throws {
        let configuration = load(("20-x.toml", "[variants.a]\nformat = \"png\"\nquality = 90\n"))
        #expect(printed(configuration) == ["20-x.toml:3: warning: 'quality' does not apply to png output and is ignored (variant 'a')"])
        #expect(!configuration.hasErrors)
        #expect(configuration.variant(named: "a")?.encoding.identifier == "png(compression=6)")
    }

    @Test("a missing base is reported at the base line")
    func missingBase() {
        #expect(errors("[variants.avatar]\n[variants.small]\nfilters = []\nbase = \"avatr\"\n")
            == ["20-x.toml:4: base 'avatr' is not defined (did you mean 'avatar'?)"])
    }

    @Test("in a [[variants.x.filters]] table an unknown filter is reported at its filter line, not the header")
    func unknownFilterInTableArray() {
        #expect(errors("[variants.s]\nformat = \"png\"\n\n[[variants.s.filters]]\n# a comment\nfilter = \"grayscal\"\n")
            == ["20-x.toml:6: unknown filter 'grayscal' (did you mean 'grayscale'?)"])
    }

    @Test("a missing base never suggests the variant itself, and an empty one suggests nothing")
    func missingBaseHintNotSelf() {
        #expect(errors("[variants.b]\nbase = \"B\"\n[variants.B2]\nfilters = [\"grayscale\"]\n")
            == ["20-x.toml:2: base 'B' is not defined (did you mean 'B2'?)"])
        #expect(errors("[variants.a]\nbase = \"\"\n") == ["20-x.toml:2: base '' is not defined"])
    }

    @Test("a base cycle is reported once, on a participant's line, and its members are left out")
    func baseCycle() {
        let configuration = load(
            ("10-a.toml", "[variants.b]\nbase = \"c\"\n[variants.outside]\nbase = \"c\"\n"),
            ("20-b.toml", "[variants.c]\nfilters = [\"invert\"]\nbase = \"b\"\n[variants.self]\nbase = \"self\"\n[variants.fine]\n"))
        #expect(printed(configuration) == [
            "10-a.toml:2: cycle: b → c → b",
            "20-b.toml:5: cycle: self → self",
        ])
        #expect(configuration.variantNames == ["fine"])
        #expect(configuration.unresolvedVariants == ["b", "c", "outside", "self"])
    }

    @Test("a chain of bases longer than the limit is reported once; the variants within it resolve")
    func deepBaseChain() {
        // v0 ← v1 ← … ← v(n): 12,000 deep overflowed the stack of a recursive resolution.
        let depth = 12_000
        var text = "[variants.v0]\nfilters = [\"invert\"]\n"
        for i in 1...depth { text += "[variants.v\(i)]\nbase = \"v\(i - 1)\"\n" }
        let configuration = load(("10-deep.toml", text))
        let lines = printed(configuration)
        #expect(lines.count == 1)
        #expect(lines.first?.contains("a chain may hold at most \(VariantResolver.maximumDepth)") == true, "\(lines)")
        let limit = VariantResolver.maximumDepth
        #expect(configuration.variant(named: "v\(limit - 1)")?.chain.filters.count == 1)
        #expect(configuration.variant(named: "v\(limit)") == nil)
        #expect(configuration.variant(named: "v\(depth)") == nil)
    }

    @Test("a cycle reached through another variant is named from its alphabetically first member")
    func cycleThroughTail() {
        let configuration = load(("a.toml", """
            [variants.a]
            base = "z"
            [variants.z]
            base = "m"
            [variants.m]
            filters = ["invert"]
            base = "z"
            """))
        #expect(printed(configuration) == ["a.toml:7: cycle: m → z → m"])
        #expect(configuration.variants.isEmpty)
    }

    @Test("a filter spec string that does not parse is reported at its element")
    func unparsableSpec() {
        #expect(errors("[variants.a]\nfilters = [\n  \"grayscale\", \"scale(width=3\",\n]\n")
            == ["20-x.toml:3: cannot parse filter spec 'scale(width=3': expected name or name(key=value,…): missing ')' at the end"])
    }

    @Test("an unknown top-level key names the nearest known one")
    func unknownTopLevelKey() {
        #expect(errors("# comment\n\n[varients.a]\nfilters = []\n")
            == ["20-x.toml:3: unknown top-level key 'varients' (did you mean 'variants'?); expected one of variants, caches, sources, defaults, decode, limits"])
    }

    @Test("several errors in several files are all reported, in reading order, and good variants still resolve")
    func allErrorsCollected() {
        let configuration = load(
            ("10-first.toml", """
                [variants.good]
                filters = ["grayscale"]

                [variants.bad-filter]
                filters = ["grayscale", "blurr"]
                """),
            ("20-second.toml", """
                limits = 3
                [variants.bad-quality]
                quality = 0
                filters = ["scale(width=1)"]

                [variants.child-of-bad]
                base = "bad-filter"
                """),
            ("30-broken.toml", "[variants.x\n"))
        let lines = printed(configuration)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.map { $0.split(separator: ":").prefix(2).joined(separator: ":") } == [
            "10-first.toml:5", "20-second.toml:1", "20-second.toml:3", "20-second.toml:4", "30-broken.toml:1",
        ])
        #expect(configuration.variantNames == ["good"])
        #expect(configuration.unresolvedVariants == ["bad-filter", "bad-quality", "child-of-bad"])
        #expect(configuration.hasErrors)
    }
}
