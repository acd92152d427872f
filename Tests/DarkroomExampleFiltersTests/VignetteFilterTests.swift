import Darkroom
import DarkroomConfig
import DarkroomCore
import DarkroomExampleFilters
import DarkroomTestSupport
import Testing

// MARK: - The example extension module

@Suite("A third-party filter module registers itself and is usable from filters.d")
struct ExampleFilterModuleTests {
    static let registry: Registry = {
        var registry = Registry.standard
        ExampleFilters.register(in: &registry)
        return registry
    }()

    @Test("registering adds the filter with its origin, and the standard registry lacks it")
    func registration() {
        #expect(Self.registry.filters["vignette"] != nil)
        #expect(Self.registry.filterOrigins["vignette"] == "DarkroomExampleFilters")
        #expect(Registry.standard.filters["vignette"] == nil)
    }

    @Test("a filters.d file can name the registered filter, with validated arguments")
    func fromConfig() throws {
        let toml = """
            [variants.vignetted]
            filters = [ { filter = "vignette", strength = 0.6 } ]
            format = "png"
            """
        let configuration = ConfigLoader.load(sources: [ConfigSource(name: "90-example.toml", text: toml)], filters: Self.registry.filters)
        #expect(!configuration.hasErrors)
        let variant = try #require(configuration.variant(named: "vignetted"))
        #expect(variant.chain.identifier == "vignette(color=#000000ff,radius=0.6,strength=0.6)")

        let without = ConfigLoader.load(sources: [ConfigSource(name: "90-example.toml", text: toml)], filters: Registry.standard.filters)
        #expect(without.errors.first?.description.contains("90-example.toml:2") == true)
    }

    @Test("bad arguments are refused with the allowed range")
    func badArgument() {
        #expect {
            try Self.registry.filter(parsing: "vignette(strength=2)")
        } throws: { error in
            "\(error)".contains("0…1")
        }
    }
}

@Suite("Vignette darkens corners and leaves the centre")
struct VignetteFilterTests {
    @Test("the centre keeps its colour, the corners fade towards the colour by the strength")
    func fades() throws {
        let white = Image(width: 41, height: 41, hasAlpha: false) { $0.initialize(repeating: 255) }
        let filter = try VignetteFilter.make([("strength", .number(1)), ("radius", .number(0.5))])
        let out = try filter.apply(to: white)
        #expect(out.pixel(x: 20, y: 20) == RGBA(r: 255, g: 255, b: 255))
        let corner = out.pixel(x: 0, y: 0)
        #expect(corner.r < 40 && corner.r == corner.g && corner.g == corner.b)
        #expect(out.pixel(x: 0, y: 0) == out.pixel(x: 40, y: 40))
        #expect(out.pixel(x: 10, y: 20).r > corner.r)
    }

    @Test("strength 0 changes nothing; alpha is untouched")
    func neutral() throws {
        let image = Pattern.gradient(alpha: true)
        let out = try VignetteFilter.make([("strength", .number(0))]).apply(to: image)
        #expect(out == image)
        let strong = try VignetteFilter.make([("strength", .number(1))]).apply(to: image)
        #expect(zip(stride(from: 3, to: image.pixels.count, by: 4), stride(from: 3, to: image.pixels.count, by: 4))
            .allSatisfy { image.pixels[$0.0] == strong.pixels[$0.1] })
    }

    @Test("the colour's alpha scales the fade: transparent changes nothing, half-transparent fades half as far")
    func colorAlpha() throws {
        let white = Image(width: 41, height: 41, hasAlpha: false) { $0.initialize(repeating: 255) }
        let transparent = try VignetteFilter.make([("strength", .number(1)), ("color", .text("#00000000"))])
        #expect(try transparent.apply(to: white) == white)
        let opaque = try VignetteFilter.make([("strength", .number(1))]).apply(to: white).pixel(x: 0, y: 0)
        let half = try VignetteFilter.make([("strength", .number(1)), ("color", .text("#00000080"))])
            .apply(to: white).pixel(x: 0, y: 0)
        let expected = 255 - (255 - Double(opaque.r)) * 128 / 255
        #expect(abs(Double(half.r) - expected) <= 1, "\(half) vs \(expected)")
    }
}
