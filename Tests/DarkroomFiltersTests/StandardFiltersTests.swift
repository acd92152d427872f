import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - The list

@Suite("StandardFilters lists every self-contained filter once")
struct StandardFiltersListTests {
    @Test("names are unique, every group is listed, and overlay is kept apart because it needs a loader")
    func names() {
        let names = StandardFilters.schemas.map(\.name)
        let groups = (StandardFilters.color + StandardFilters.convolution + StandardFilters.shape
            + StandardFilters.composition).map(\.name)
        #expect(groups == [
            "grayscale", "sepia", "brightness", "contrast", "saturation", "negate", "tint",
            "blur", "sharpen", "pixelate", "rounded-corners", "circle", "flatten",
        ])
        #expect(Set(names).count == names.count)
        #expect(Set(groups).isSubset(of: Set(names)))
        #expect(!names.contains("overlay"))
        #expect(StandardFilters.overlaySchema { _ in throw DarkroomError.cancelled }.name == "overlay")
    }

    @Test("every schema documents itself: a summary, and a summary per argument")
    func documented() {
        for schema in StandardFilters.schemas + [OverlayFilter.declaration] {
            #expect(schema.summary.count > 20, "\(schema.name)")
            for argument in schema.arguments { #expect(!argument.summary.isEmpty, "\(schema.name).\(argument.name)") }
        }
    }

    @Test("idempotent filters are exactly the ones that are")
    func idempotence() {
        let mine = StandardFilters.color + StandardFilters.convolution + StandardFilters.shape + StandardFilters.composition
        #expect(mine.filter(\.isIdempotent).map(\.name) == ["grayscale", "pixelate", "flatten"])
    }
}

// MARK: - Identifiers

@Suite("Standard filter identifiers are canonical and parse back")
struct StandardFiltersIdentifierTests {
    private func schema(_ name: String) -> FilterSchema { StandardFilters.schemas.first { $0.name == name }! }

    @Test("canonical identifiers", arguments: [
        ("blur", [("sigma", FilterInput.number(4))], "blur(sigma=4)"),
        ("blur", [("sigma", .text("4.0"))], "blur(sigma=4)"),
        ("blur", [], "blur(sigma=2)"),
        ("grayscale", [], "grayscale"),
        ("sharpen", [("amount", .text("0.50"))], "sharpen(amount=0.5,sigma=1,threshold=0)"),
        ("tint", [("color", .text("#F80"))], "tint(color=#ff8800ff,intensity=1)"),
        ("pixelate", [("size", .text("12"))], "pixelate(size=12)"),
        ("rounded-corners", [], "rounded-corners(radius=16)"),
        ("sepia", [("intensity", .number(0.25))], "sepia(intensity=0.25)"),
    ])
    func canonical(name: String, inputs: [(String, FilterInput)], expected: String) throws {
        #expect(try schema(name).makeFilter(inputs).identifier == expected)
    }

    @Test("the Swift initialisers give the same identifiers as the schemas")
    func initialisers() throws {
        #expect(try BlurFilter(sigma: 4).identifier == "blur(sigma=4)")
        #expect(try TintFilter(color: RGBA(r: 255, g: 136, b: 0)).identifier == "tint(color=#ff8800ff,intensity=1)")
        #expect(try CircleFilter().identifier == "circle")
    }

    @Test("every identifier round-trips through FilterSpec and makeFilter")
    func roundTrip() throws {
        let samples: [String: [(String, FilterInput)]] = [
            "sepia": [("intensity", .number(0.3))], "brightness": [("factor", .number(1.7))],
            "contrast": [("factor", .number(0.8))], "saturation": [("factor", .number(2.25))],
            "tint": [("color", .text("#10203040")), ("intensity", .number(0.6))],
            "blur": [("sigma", .number(7.5))], "sharpen": [("sigma", .number(2)), ("threshold", .integer(3))],
            "pixelate": [("size", .integer(5))], "rounded-corners": [("radius", .integer(9))],
            "scale": [("width", .integer(8)), ("height", .integer(6))], "aspect-fit": [("width", .integer(8)), ("height", .integer(6))],
            "aspect-fill": [("width", .integer(8)), ("height", .integer(6))], "pad": [("width", .integer(8)), ("height", .integer(6))],
            "crop": [("x", .integer(1)), ("y", .integer(2)), ("width", .integer(8)), ("height", .integer(6))],
            "rotate": [("angle", .number(30))],
        ]
        for schema in StandardFilters.schemas {
            let filter = try schema.makeFilter(samples[schema.name] ?? [])
            let spec = try FilterSpec(parsing: filter.identifier)
            #expect(spec.name == schema.name)
            #expect(try schema.makeFilter(spec.pairs).identifier == filter.identifier)
        }
    }

    @Test("equal identifiers give equal pixels")
    func equalOutput() throws {
        let image = Pattern.gradient(alpha: true, width: 24, height: 16)
        let a = try schema("blur").makeFilter([("sigma", .text("3.50"))])
        let b = try schema("blur").makeFilter(FilterSpec(parsing: a.identifier).pairs)
        #expect(try a.apply(to: image) == b.apply(to: image))
    }
}

// MARK: - Validation

@Suite("Out-of-range arguments are refused with the allowed range")
struct StandardFiltersValidationTests {
    @Test("each range is named in the error", arguments: [
        ("blur", "sigma", "0.1", "0.3…100 px"),
        ("blur", "sigma", "101", "0.3…100 px"),
        ("sharpen", "amount", "11", "0…10"),
        ("sharpen", "threshold", "-1", "0…255 levels"),
        ("pixelate", "size", "0", "1…1024 px"),
        ("rounded-corners", "radius", "65536", "0…65535 px"),
        ("brightness", "factor", "4.5", "0…4"),
        ("sepia", "intensity", "1.01", "0…1"),
        ("tint", "color", "#12", "a colour"),
    ])
    func outOfRange(filter: String, argument: String, value: String, range: String) {
        let schema = StandardFilters.schemas.first { $0.name == filter }!
        var inputs: [(String, FilterInput)] = [(argument, .text(value))]
        if filter == "tint", argument != "color" { inputs.append(("color", .text("red"))) }
        #expect {
            try schema.makeFilter(inputs)
        } throws: { error in
            "\(error)".contains("'\(argument)'") && "\(error)".contains(range)
        }
    }

    @Test("the Swift initialisers validate too")
    func initialisers() {
        #expect(throws: DarkroomError.self) { try BlurFilter(sigma: 0) }
        #expect(throws: DarkroomError.self) { try PixelateFilter(size: 2000) }
        #expect(throws: DarkroomError.self) { try TintFilter(color: "not a colour") }
        #expect(throws: DarkroomError.self) { try OverlayFilter(overlay: greyImage(1, 1, [0]), path: "x", opacity: 1.5) }
    }

    @Test("tint requires its colour")
    func required() {
        #expect {
            try StandardFilters.schemas.first { $0.name == "tint" }!.makeFilter([])
        } throws: { error in
            "\(error)".contains("'color'") && "\(error)".contains("missing")
        }
    }
}
