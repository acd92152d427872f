@testable import DarkroomConfig
import Testing

@Suite("The line locator finds where each table, key and array element is written")
struct LineLocatorTests {
    private func line(_ text: String, _ path: TOMLPath) -> Int? {
        TOMLLineLocator(text: text).position(of: path)?.line
    }

    @Test("headers, keys and multi-line array elements")
    func headersKeysAndElements() {
        let text = """
            # a comment with [brackets] and = signs
            [variants.avatar]
            filters = [ # trailing comment, "not a string"
              { filter = "scale", width = 1, height = 1 },

              "circle", "blur(sigma=2)",
            ]
            format = "png"
            """
        let locator = TOMLLineLocator(text: text)
        let filters: TOMLPath = [.key("variants"), .key("avatar"), .key("filters")]
        #expect(locator.position(of: [.key("variants"), .key("avatar")]) == TOMLPosition(line: 2, column: 1))
        #expect(locator.position(of: filters)?.line == 3)
        #expect(locator.position(of: filters + [.index(0)]) == TOMLPosition(line: 4, column: 3))
        #expect(locator.position(of: filters + [.index(0), .key("width")]) == TOMLPosition(line: 4, column: 23))
        #expect(locator.position(of: filters + [.index(1)]) == TOMLPosition(line: 6, column: 3))
        #expect(locator.position(of: filters + [.index(2)]) == TOMLPosition(line: 6, column: 13))
        #expect(locator.position(of: filters + [.index(3)]) == nil)
        #expect(locator.position(of: [.key("variants"), .key("avatar"), .key("format")])?.line == 8)
    }

    @Test("[[table arrays]] count their elements, also nested under another table array")
    func tableArrays() {
        let text = """
            [[a]]
            x = 1
            [[a.b]]
            y = 2
            [[a]]
            [[a.b]]
            [[a.b]]
            z = 3
            """
        #expect(line(text, [.key("a"), .index(0), .key("x")]) == 2)
        #expect(line(text, [.key("a"), .index(0), .key("b"), .index(0), .key("y")]) == 4)
        #expect(line(text, [.key("a"), .index(1)]) == 5)
        #expect(line(text, [.key("a"), .index(1), .key("b"), .index(1), .key("z")]) == 8)
    }

    @Test("strings that look like structure do not confuse it; quoted and dotted keys decode")
    func stringsAndQuotedKeys() throws {
        let text = #"""
            [variants."odd \"name\"".x]
            a = """
            [not.a.header]
            b = 'still inside' """
            c.d = 'C:\dir'
            'lit.key' = "x # not a comment"
            e = [ '''
            ]''', "]" ]
            f = 1979-05-27 07:32:00Z
            """#
        let table: TOMLPath = [.key("variants"), .key("odd \"name\""), .key("x")]
        let parsed = try #require(try? TOMLDocumentReader.read(text, file: "t.toml").get(), "TOMLKit accepts the text")
        #expect(parsed["variants"]?["odd \"name\""]?["x"]?["e"]?.array?.map(\.location.line) == [7, 8])
        #expect(parsed["variants"]?["odd \"name\""]?["x"]?["c"]?["d"]?.string == "C:\\dir")
        #expect(line(text, table) == 1)
        #expect(line(text, table + [.key("a")]) == 2)
        #expect(line(text, [.key("not")]) == nil)
        #expect(line(text, table + [.key("c"), .key("d")]) == 5)
        #expect(line(text, table + [.key("lit.key")]) == 6)
        #expect(line(text, table + [.key("e"), .index(1)]) == 8)
        #expect(line(text, table + [.key("f")]) == 9)
    }

    @Test("columns count Unicode scalars, and a missing path falls back to its nearest ancestor")
    func columnsAndFallback() {
        let locator = TOMLLineLocator(text: "[t]\n\"é→\" = [ 1, 2 ]\n")
        #expect(locator.position(of: [.key("t"), .key("é→"), .index(1)]) == TOMLPosition(line: 2, column: 13))
        #expect(locator.nearestPosition(of: [.key("t"), .key("é→"), .index(7)]) == TOMLPosition(line: 2, column: 1))
        #expect(locator.nearestPosition(of: [.key("nothing")]) == TOMLPosition(line: 1, column: 1))
    }
}
