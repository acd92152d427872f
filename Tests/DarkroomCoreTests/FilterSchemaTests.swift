import DarkroomCore
import Testing

// MARK: - A declared filter for these tests

/// Multiplies every colour channel by `gain` and replaces alpha by `alpha` (a real, tiny filter).
private struct GainFilter: DeclaredFilter {
    static let name = "gain"
    static let summary = "Scales colour channels."
    static let arguments: [FilterArgument] = [
        FilterArgument(name: "gain", kind: .number(0...4), default: .number(1), summary: "factor"),
        FilterArgument(name: "width", kind: .integer(1...16384), unit: "px", summary: "required, unused"),
        FilterArgument(name: "mode", kind: .choice(["fast", "exact"]), default: .choice("exact"), summary: "mode"),
        FilterArgument(name: "background", kind: .color, default: .color(RGBA(r: 255, g: 255, b: 255)), summary: "bg"),
    ]
    static let isIdempotent = false
    let arguments: FilterArguments

    init(arguments: FilterArguments) { self.arguments = arguments }

    func apply(to image: Image) throws -> Image {
        let gain = arguments.double("gain")
        return Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { out in
            for i in 0..<image.pixels.count {
                out[i] = i % 4 == 3 ? image.pixels[i] : UInt8(min(255, Double(image.pixels[i]) * gain))
            }
        }
    }
}

// MARK: - Identifiers

@Suite("Filter identifiers are canonical and parse back into equal filters")
struct FilterIdentifierTests {
    let schema = FilterSchema(GainFilter.self)

    @Test("arguments are sorted and defaults filled in")
    func sortedWithDefaults() throws {
        let filter = try schema.makeFilter([("width", .integer(128))])
        #expect(filter.identifier == "gain(background=#ffffffff,gain=1,mode=exact,width=128)")
    }

    @Test("equal filters written differently have equal identifiers")
    func equalFilters() throws {
        let a = try schema.makeFilter([("width", .integer(128)), ("gain", .number(1.50))])
        let b = try schema.makeFilter([("gain", .text("1.5")), ("width", .text("128.0")), ("background", .text("#FFF"))])
        let c = try schema.makeFilter([("gain", .text(" 1.500 ")), ("width", .number(128)), ("mode", .text("EXACT"))])
        #expect(a.identifier == b.identifier)
        #expect(a.identifier == c.identifier)
    }

    @Test("different arguments never collide")
    func differentFilters() throws {
        let values = ["0", "0.5", "1", "1.25", "2", "4"]
        let ids = try values.map { try schema.makeFilter([("gain", .text($0)), ("width", .integer(1))]).identifier }
        #expect(Set(ids).count == values.count)
    }

    @Test("an identifier parses back into the same filter")
    func roundTrip() throws {
        let filter = try schema.makeFilter([("width", .integer(64)), ("gain", .number(0.75)), ("background", .text("#10203040"))])
        let spec = try FilterSpec(parsing: filter.identifier)
        #expect(spec.name == "gain")
        #expect(try schema.makeFilter(spec.pairs).identifier == filter.identifier)
    }

    @Test("negative zero and integral numbers have one form")
    func numbers() {
        #expect(FilterValue.number(-0.0).canonicalText == "0")
        #expect(FilterValue.number(3.0).canonicalText == "3")
        #expect(FilterValue.number(0.1).canonicalText == "0.1")
    }

    @Test("text values are escaped so separators cannot occur inside an identifier")
    func escaping() throws {
        let text = FilterValue.text("a,b(c)=d|e f%")
        #expect(!text.canonicalText.contains(where: { ",()=| ".contains($0) }))
        let spec = try FilterSpec(parsing: "x(path=\(text.canonicalText))")
        #expect(spec.arguments.first?.value == .text("a,b(c)=d|e f%"))
    }
}

// MARK: - Validation

@Suite("Filter arguments are validated against their declarations")
struct FilterValidationTests {
    let schema = FilterSchema(GainFilter.self)

    @Test("an out-of-range value names the argument and the range")
    func outOfRange() {
        #expect {
            try schema.resolve([("width", .integer(0))])
        } throws: { error in
            "\(error)".contains("'width'") && "\(error)".contains("1…16384 px")
        }
    }

    @Test("an unknown argument suggests the nearest one")
    func unknown() {
        #expect {
            try schema.resolve([("widht", .integer(3))])
        } throws: { error in
            "\(error)".contains("did you mean 'width'")
        }
    }

    @Test("a missing required argument is named")
    func missing() {
        #expect {
            try schema.resolve([])
        } throws: { error in
            "\(error)".contains("'width'") && "\(error)".contains("missing")
        }
    }

    @Test("wrong types and bad choices are refused", arguments: [
        ("mode", FilterInput.text("slow")), ("background", .text("#12")), ("gain", .boolean(true)), ("gain", .text("nan")),
    ])
    func wrongTypes(key: String, value: FilterInput) {
        #expect(throws: DarkroomError.self) { try schema.resolve([("width", .integer(1)), (key, value)]) }
    }

    @Test("numbers are plain decimals: hexadecimal, inf and nan are refused", arguments: [
        ("width", "0x40"), ("width", "0x1p6"), ("gain", "0x1p2"), ("gain", "inf"), ("gain", "infinity"), ("gain", "nan"),
        ("gain", "1_000"), ("gain", "½"),
    ])
    func decimalOnly(key: String, text: String) {
        let others: [(String, FilterInput)] = key == "width" ? [] : [("width", .integer(4))]
        #expect(throws: DarkroomError.self) { try schema.resolve(others + [(key, .text(text))]) }
    }

    @Test("decimal spellings are read", arguments: [("3", 3.0), ("+3", 3), ("0.3e1", 3), (".5", 0.5), ("-0", 0), ("2E0", 2)])
    func decimals(text: String, value: Double) throws {
        let arguments = try schema.resolve([("width", .integer(4)), ("gain", .text(text))])
        #expect(arguments.double("gain") == value)
    }

    @Test("tabs and line breaks around a spec, a name or a value are white space like spaces")
    func whiteSpace() throws {
        let spec = try FilterSpec(parsing: "\tgain(\nwidth =\t4 , gain=\t2\n)\n")
        #expect(spec.name == "gain")
        #expect(try schema.makeFilter(spec.pairs).identifier == schema.makeFilter([("width", .integer(4)), ("gain", .number(2))]).identifier)
        #expect(try FilterSpec(parsing: "grayscale\r\n").name == "grayscale")
    }

    @Test("malformed specs are refused", arguments: ["", "(x=1)", "blur(", "blur(sigma)", "blur(sigma=1))", "9lives", "blur(a=1,,b=2)"])
    func malformed(text: String) {
        #expect(throws: DarkroomError.self) { try FilterSpec(parsing: text) }
    }

    @Test("the filter built from a schema really runs with its arguments")
    func runs() throws {
        let image = try Image(width: 1, height: 1, pixels: [100, 50, 10, 255])
        let out = try GainFilter.make([("width", .integer(1)), ("gain", .number(2))]).apply(to: image)
        #expect(out.pixel(x: 0, y: 0) == RGBA(r: 200, g: 100, b: 20, a: 255))
    }
}

// MARK: - Colours and names

@Suite("Colours and name suggestions")
struct ColorAndNameTests {
    @Test("colour forms", arguments: [
        ("#fff", RGBA(r: 255, g: 255, b: 255)), ("#00000000", RGBA(r: 0, g: 0, b: 0, a: 0)),
        ("#ff8000", RGBA(r: 255, g: 128, b: 0)), ("transparent", RGBA(r: 0, g: 0, b: 0, a: 0)), ("White", RGBA(r: 255, g: 255, b: 255)),
    ])
    func colors(text: String, expected: RGBA) {
        #expect(ColorParser.parse(text) == expected)
    }

    /// `Character.isHexDigit` also accepts fullwidth forms, which `UInt8(_:radix:)` does not:
    /// such text once crashed the parser instead of being refused.
    @Test("text that only looks like hex digits is not a colour", arguments: ["#ｆｆｆ", "#１２３４５６", "#ＡＢＣＤ"])
    func lookalikeDigits(text: String) {
        #expect(ColorParser.parse(text) == nil)
    }

    @Test("nearest names")
    func nearest() {
        #expect(NearestName.suggestion(for: "aspectfill", among: ["aspect-fill", "aspect-fit", "blur"]) == "aspect-fill")
        #expect(NearestName.suggestion(for: "blurr", among: ["aspect-fill", "blur"]) == "blur")
        #expect(NearestName.suggestion(for: "zzzzzz", among: ["blur", "crop"]) == nil)
    }
}
