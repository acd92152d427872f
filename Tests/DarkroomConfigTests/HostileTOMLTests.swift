@testable import DarkroomConfig
import DarkroomCore
import Testing

// MARK: - TOML that crashed or stalled the parser

@Suite("TOML that would crash, truncate or stall the TOML library is refused first, at its line")
struct HostileTOMLTests {
    private func errors(_ text: String) -> [String] {
        printed(load(("20-x.toml", text)))
    }

    @Test("a key holding \\u0000 is an error at its line (TOMLKit trapped on it), wherever the key is", arguments: [
        ("[\"\\u0000\"]\n", 1),
        ("[variants.a]\nfilters = []\n\n[variants.\"b\\u0000\"]\n", 4),
        ("[caches.\"\\u0000\"]\nlimit = \"1GB\"\n", 1),
        ("[sources.http.hosts.\"a\\U00000000.example.com\"]\nusername = \"x\"\n", 1),
        ("[variants.a]\nfilters = [ { filter = \"scale\", \"w\\u0000\" = 3 } ]\n", 2),
    ])
    func nulInKey(text: String, line: Int) {
        #expect(errors(text) == ["20-x.toml:\(line): a key or string holds \\u0000 (NUL), which is not allowed here"])
    }

    @Test(
        "a table header not starting with a key is refused before TOMLKit (toml++ asserted on '[=a]': an abort in debug builds, undefined behaviour in release)",
        arguments: [
            ("[=efaults]\ninclude = false\n", 1, "'='"), ("[variants.a]\nfilters = []\n[\nb]\n", 3, "a line break"),
            ("[[ =x]]\n", 1, "'='"), ("[ #a]\n", 1, "'#'"), ("[\r\n", 1, "a carriage return"), ("[.a]\n", 1, "'.'"),
            ("[\u{1F600}]\n", 1, "byte 0xF0"),
        ])
    func headerWithoutKey(text: String, line: Int, what: String) {
        #expect(errors(text) == ["20-x.toml:\(line): a table header must start with a key (a bare name or a quoted string), not \(what)"])
    }

    @Test(
        "an array element starting with '}' or a non-ASCII byte is refused before TOMLKit (fuzz-config: 'r=[}' failed toml++'s assertion)",
        arguments: [
            ("r=[}\n", 1, "'}'"), ("[variants.a]\nfilters = [ \"grayscale\", } ]\n", 2, "'}'"), ("r = [[}]]\n", 1, "'}'"),
            ("r = { a = [}] }\n", 1, "'}'"), ("r = [1,\u{2028}]\n", 1, "byte 0xE2"),
        ])
    func arrayElementTerminator(text: String, line: Int, what: String) {
        #expect(errors(text) == ["20-x.toml:\(line): an array element cannot start with \(what)"])
    }

    @Test("headers that do start with a key still parse: bare, quoted, spaced, arrays of tables")
    func headersWithKeys() {
        let configuration = load(("20-x.toml", "[ variants.a ]\nfilters = []\n[\"variants\".'b']\nfilters = []\n[[sources.http.extra]]\nx = 1\n"))
        #expect(!printed(configuration).contains { $0.contains("table header") }, "\(printed(configuration))")
        #expect(configuration.variant(named: "a") != nil && configuration.variant(named: "b") != nil)
    }

    @Test("a string value holding \\u0000 is an error, not silently cut short")
    func nulInValue() {
        #expect(errors("[variants.a]\nfilters = [\"grayscale\"]\nformat = \"png\\u0000jpeg\"\n")
            == ["20-x.toml:3: a key or string holds \\u0000 (NUL), which is not allowed here"])
        #expect(errors("[variants.a]\nfilters = [\"\"\"\ngray\\u0000\"\"\"]\n")
            == ["20-x.toml:2: a key or string holds \\u0000 (NUL), which is not allowed here"])
    }

    @Test("a table header of 16,000 dotted parts is refused before TOMLKit (it took 11 s and 3 GB, then aborted)")
    func deepHeader() {
        let header = "[" + Array(repeating: "x", count: 16_000).joined(separator: ".") + "]\n"
        #expect(errors("[variants.a]\nfilters = []\n" + header) == ["20-x.toml:3: keys and values nest more than 64 levels deep"])
    }

    @Test("dotted keys and nested arrays deeper than 64 levels are refused; 30 levels are fine")
    func deepKeysAndValues() {
        let dotted = Array(repeating: "k", count: 70).joined(separator: ".") + " = 1\n"
        #expect(errors("[x]\n" + dotted) == ["20-x.toml:2: keys and values nest more than 64 levels deep"])
        let nested = "v = " + String(repeating: "[", count: 80) + String(repeating: "]", count: 80) + "\n"
        #expect(errors(nested) == ["20-x.toml:1: keys and values nest more than 64 levels deep"])
        let fine = "[" + Array(repeating: "y", count: 30).joined(separator: ".") + "]\n"
        #expect(!errors(fine).contains { $0.contains("nest") })
    }

    @Test("headers sharing a long prefix are each located at their own line")
    func manyLongHeaders() {
        var text = ""
        let prefix = (0..<60).map { "p\($0)" }
        for i in 0..<2_000 { text += "[" + prefix.joined(separator: ".") + ".t\(i)]\n" }
        let locator = TOMLLineLocator(text: text)
        let path = prefix.map { TOMLPathComponent.key($0) }
        #expect(locator.position(of: path)?.line == 1)
        #expect(locator.position(of: path + [.key("t1999")])?.line == 2_000)
        #expect(locator.nearestPosition(of: path + [.key("t7"), .key("missing")]).line == 8)
    }
}
