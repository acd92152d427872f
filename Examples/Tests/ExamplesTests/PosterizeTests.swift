import Darkroom
import Posterize
import Testing

// MARK: - A filter module of your own

@Suite("A user's filter: declared as data, typed or parsed, the same pixels and identifier")
struct PosterizeTests {
    static let registry: Registry = {
        var registry = Registry.standard
        PosterizeFilters.register(in: &registry)
        return registry
    }()

    /// A 256×1 ramp: every value of a channel once.
    static let ramp = Image(width: 256, height: 1, hasAlpha: false) { pixels in
        for x in 0..<256 {
            pixels[x * 4] = UInt8(x)
            pixels[x * 4 + 1] = UInt8(255 - x)
            pixels[x * 4 + 2] = UInt8(x / 2)
            pixels[x * 4 + 3] = 255
        }
    }

    @Test("levels = 2 leaves only 0 and 255 in every colour channel, and the image opaque")
    func twoLevels() throws {
        let poster = try Self.ramp.applying(.posterize(levels: 2))
        let values = Set((0..<256).flatMap { x in [poster.pixel(x: x, y: 0).r, poster.pixel(x: x, y: 0).g, poster.pixel(x: x, y: 0).b] })
        #expect(values == [0, 255])
        #expect(!poster.hasAlpha)
        #expect(poster.pixel(x: 127, y: 0).r == 0 && poster.pixel(x: 128, y: 0).r == 255)
    }

    @Test("the typed step and filters.d's spelling make the same identifier and pixels", arguments: [2, 4, 9, 255])
    func typedMatchesParsed(levels: Int) throws {
        let typed = try FilterChain(.posterize(levels: levels))
        let parsed = try Self.registry.chain(parsing: "posterize(levels=\(levels))").filters
        #expect(typed.identifier == "posterize(levels=\(levels))")
        #expect(typed.identifier == FilterChain(parsed).identifier)
        #expect(try typed.apply(to: Self.ramp) == FilterChain(parsed).apply(to: Self.ramp))
    }

    @Test("a level count outside 2…255 is refused by name, typed or in filters.d")
    func refusesBadLevels() throws {
        #expect(throws: DarkroomError.self) { try FilterChain(.posterize(levels: 1)) }
        let folder = try ExampleFolder()
        try folder.write("10-poster.toml", """
            [variants.poster]
            filters = [ { filter = "posterize", levels = 300 } ]
            """)
        let configuration = ConfigLoader.load(directory: folder.path, filters: Self.registry.filters)
        let message = configuration.errors.map(\.description).joined(separator: "\n")
        #expect(message.contains("10-poster.toml:2"), "\(message)")
        #expect(message.contains("levels"), "\(message)")
    }

    @Test("the standard registry does not know posterize; the extended one lists it with its origin")
    func registration() {
        #expect(Registry.standard.filters["posterize"] == nil)
        #expect(Self.registry.filters["posterize"] != nil)
        #expect(Self.registry.filterOrigins["posterize"] == "Posterize")
    }
}
