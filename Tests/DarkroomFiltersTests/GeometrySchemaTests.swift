import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

private func schema(_ name: String) -> FilterSchema { StandardFilters.geometry.first { $0.name == name }! }

/// A sample argument list per geometry filter (required ones given).
private let samples: [String: [(String, FilterInput)]] = [
    "scale": [("width", .integer(64)), ("height", .integer(48)), ("kernel", .text("Catmull-Rom"))],
    "aspect-fit": [("width", .text("256")), ("height", .number(256)), ("upscale", .text("false"))],
    "aspect-fill": [("width", .integer(128)), ("height", .integer(128)), ("gravity", .text("northeast"))],
    "crop": [("x", .integer(3)), ("y", .integer(4)), ("width", .integer(10)), ("height", .integer(20))],
    "trim": [("threshold", .text("25"))],
    "rotate": [("angle", .text("-12.50")), ("background", .text("#fff"))],
    "flip": [], "flop": [],
    "pad": [("width", .integer(300)), ("height", .integer(200)), ("background", .text("white"))],
    "extend": [("top", .integer(1)), ("left", .integer(7))],
]

// MARK: - Identifiers

@Suite("Geometry filter identifiers are canonical and parse back")
struct GeometryIdentifierTests {
    @Test("the group lists every geometry filter, and the standard list includes it")
    func listed() {
        #expect(StandardFilters.geometry.map(\.name)
                == ["scale", "aspect-fit", "aspect-fill", "crop", "trim", "rotate", "flip", "flop", "pad", "extend"])
        let all = StandardFilters.schemas.map(\.name)
        #expect(StandardFilters.geometry.allSatisfy { all.contains($0.name) })
        #expect(Set(all).count == all.count)
    }

    @Test("canonical identifiers", arguments: [
        ("aspect-fill", [("width", FilterInput.integer(128)), ("height", .integer(128))],
         "aspect-fill(gravity=center,height=128,kernel=lanczos3,upscale=true,width=128)"),
        ("scale", [("width", .text("64")), ("height", .text("64.0"))], "scale(height=64,kernel=lanczos3,upscale=true,width=64)"),
        ("scale", [("width", .integer(9)), ("height", .integer(3)), ("kernel", .text("CATMULL-ROM")), ("upscale", .text("False"))],
         "scale(height=3,kernel=catmull-rom,upscale=false,width=9)"),
        ("aspect-fit", [("height", .integer(10)), ("width", .integer(20)), ("kernel", .text("box"))],
         "aspect-fit(height=10,kernel=box,upscale=true,width=20)"),
        ("crop", [("x", .integer(0)), ("y", .integer(5)), ("width", .integer(6)), ("height", .integer(7))],
         "crop(height=7,width=6,x=0,y=5)"),
        ("rotate", [("angle", .text("90.0"))], "rotate(angle=90,background=#00000000)"),
        ("rotate", [("angle", .number(-0.0))], "rotate(angle=0,background=#00000000)"),
        ("flip", [], "flip"),
        ("flop", [], "flop"),
        ("pad", [("width", .integer(8)), ("height", .integer(8)), ("background", .text("#F00"))],
         "pad(background=#ff0000ff,gravity=center,height=8,width=8)"),
        ("extend", [("bottom", .integer(2))], "extend(background=#00000000,bottom=2,left=0,right=0,top=0)"),
    ])
    func canonical(name: String, inputs: [(String, FilterInput)], expected: String) throws {
        #expect(try schema(name).makeFilter(inputs).identifier == expected)
    }

    @Test("the Swift initialisers give the schemas' identifiers")
    func initialisers() throws {
        #expect(try AspectFillFilter(width: 128, height: 128).identifier
                == "aspect-fill(gravity=center,height=128,kernel=lanczos3,upscale=true,width=128)")
        #expect(try ScaleFilter(width: 5, height: 6, upscale: false, kernel: .catmullRom).identifier
                == "scale(height=6,kernel=catmull-rom,upscale=false,width=5)")
        #expect(try AspectFitFilter(width: 1, height: 2, kernel: .mitchell).identifier
                == "aspect-fit(height=2,kernel=mitchell,upscale=true,width=1)")
        #expect(try RotateFilter(angle: 45, background: RGBA(r: 255, g: 255, b: 255)).identifier
                == "rotate(angle=45,background=#ffffffff)")
        #expect(try ExtendFilter(top: 3, background: RGBA(r: 1, g: 2, b: 3, a: 4)).identifier
                == "extend(background=#01020304,bottom=0,left=0,right=0,top=3)")
    }

    @Test("every kernel has a word that maps back to it", arguments: ResamplingKernel.allCases)
    func kernels(kernel: ResamplingKernel) throws {
        let filter = try ScaleFilter(width: 4, height: 4, kernel: kernel)
        let rebuilt = try schema("scale").makeFilter(FilterSpec(parsing: filter.identifier).pairs)
        #expect(rebuilt.identifier == filter.identifier)
        let image = detailedImage(width: 9, height: 7)
        #expect(try rebuilt.apply(to: image) == Resampler.resize(image, to: PixelSize(width: 4, height: 4), kernel: kernel))
    }

    @Test("every identifier round-trips through FilterSpec and makeFilter, to equal pixels")
    func roundTrip() throws {
        let image = T.numbered(width: 40, height: 30)
        for geometry in StandardFilters.geometry {
            let filter = try geometry.makeFilter(samples[geometry.name]!)
            let spec = try FilterSpec(parsing: filter.identifier)
            #expect(spec.name == geometry.name)
            let rebuilt = try geometry.makeFilter(spec.pairs)
            #expect(rebuilt.identifier == filter.identifier)
            #expect(try rebuilt.apply(to: image) == filter.apply(to: image), "\(filter.identifier)")
        }
    }
}

private typealias T = GeometryTestImages

// MARK: - Validation

@Suite("Out-of-range geometry arguments are refused with the allowed range")
struct GeometryValidationTests {
    @Test("each range is named in the error", arguments: [
        ("scale", "width", "0", "1…16384 px"),
        ("scale", "height", "16385", "1…16384 px"),
        ("aspect-fit", "width", "2.5", "0…16384 px"),
        ("aspect-fill", "height", "-3", "1…16384 px"),
        ("aspect-fill", "gravity", "middle", "one of center, north, south, east, west, northeast, northwest, southeast, southwest"),
        ("scale", "kernel", "lanczos4", "one of lanczos3, lanczos2, mitchell, catmull-rom, bilinear, box"),
        ("scale", "upscale", "maybe", "true or false"),
        ("crop", "x", "-1", "0…65535 px"),
        ("crop", "width", "0", "1…65535 px"),
        ("rotate", "angle", "361", "-360…360 degrees"),
        ("rotate", "angle", "-360.5", "-360…360 degrees"),
        ("rotate", "background", "blurple", "a colour"),
        ("pad", "width", "16385", "1…16384 px"),
        ("extend", "top", "-1", "0…16384 px"),
        ("extend", "left", "16385", "0…16384 px"),
    ])
    func outOfRange(filter: String, argument: String, value: String, range: String) {
        var inputs = samples[filter]!.filter { $0.0 != argument }
        inputs.append((argument, .text(value)))
        #expect {
            try schema(filter).makeFilter(inputs)
        } throws: { error in
            "\(error)".contains("\(filter) argument '\(argument)'") && "\(error)".contains(range)
        }
    }

    @Test("width and height are required by scale, aspect-fill, pad and crop (aspect-fit takes one alone: OneSidedFitTests)", arguments: [
        "scale", "aspect-fill", "pad", "crop",
    ])
    func required(filter: String) {
        #expect {
            try schema(filter).makeFilter(samples[filter]!.filter { $0.0 != "height" })
        } throws: { error in
            "\(error)".contains("'height'") && "\(error)".contains("missing")
        }
    }

    @Test("the Swift initialisers validate too")
    func initialisers() {
        #expect(throws: DarkroomError.self) { try ScaleFilter(width: 0, height: 10) }
        #expect(throws: DarkroomError.self) { try AspectFillFilter(width: 10, height: 10, gravity: "up") }
        #expect(throws: DarkroomError.self) { try CropFilter(x: -1, y: 0, width: 1, height: 1) }
        #expect(throws: DarkroomError.self) { try RotateFilter(angle: 720) }
        #expect(throws: DarkroomError.self) { try ExtendFilter(right: 20000) }
    }
}

// MARK: - Idempotence

@Suite("Idempotent geometry filters are exactly the ones whose repeat changes nothing")
struct GeometryIdempotenceTests {
    @Test("scale, aspect-fit, aspect-fill and pad are idempotent; the others are not")
    func flags() {
        #expect(StandardFilters.geometry.filter(\.isIdempotent).map(\.name) == ["scale", "aspect-fit", "aspect-fill", "pad"])
    }

    @Test("applying an idempotent filter twice equals applying it once", arguments: [
        "scale(width=30,height=17)", "scale(width=90,height=10,upscale=false)",
        "aspect-fit(width=25,height=25)", "aspect-fit(width=33,height=7,kernel=box)",
        "aspect-fit(width=200,height=200,upscale=false)",
        "aspect-fill(width=16,height=16,gravity=southwest)", "aspect-fill(width=31,height=9)",
        "aspect-fill(width=60,height=60,upscale=false)", "pad(width=50,height=41,gravity=east)",
    ])
    func twiceIsOnce(spec: String) throws {
        let parsed = try FilterSpec(parsing: spec)
        let filter = try schema(parsed.name).makeFilter(parsed.pairs)
        #expect(filter.isIdempotent)
        let image = detailedImage(width: 47, height: 29)
        let once = try filter.apply(to: image)
        #expect(try filter.apply(to: once) == once)
    }

    @Test("the others change the image again", arguments: [
        "crop(x=1,y=1,width=20,height=20)", "rotate(angle=90)", "rotate(angle=10)", "flip", "flop", "extend(top=1)",
    ])
    func twiceIsNotOnce(spec: String) throws {
        let parsed = try FilterSpec(parsing: spec)
        let filter = try schema(parsed.name).makeFilter(parsed.pairs)
        #expect(!filter.isIdempotent)
        let image = detailedImage(width: 47, height: 29)
        let once = try filter.apply(to: image)
        #expect(try filter.apply(to: once) != once)
    }

    @Test("a FilterChain collapses consecutive duplicates of the idempotent ones only")
    func chain() throws {
        let fill = try AspectFillFilter(width: 16, height: 16), pad = try PadFilter(width: 20, height: 20)
        let crop = try CropFilter(x: 1, y: 1, width: 8, height: 8), flip = try FlipFilter()
        let given: [any ImageFilter] = [fill, fill, pad, pad, crop, crop, flip, flip, fill]
        let kept: [any ImageFilter] = [fill, pad, crop, crop, flip, flip, fill]
        let chain = FilterChain(given)
        #expect(chain.filters.map(\.identifier) == kept.map(\.identifier))
        let image = detailedImage(width: 40, height: 25)
        #expect(try chain.apply(to: image).size == PixelSize(width: 16, height: 16))
        #expect(chain.sizeHint(forSourceSize: PixelSize(width: 4000, height: 2500)) == PixelSize(width: 46, height: 28))
    }
}
