import Darkroom
import DarkroomConfig
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Rendering several variants of one source

@Suite("Rendering several variants decodes once and computes shared prefixes once")
struct VariantRendererTests {
    let registry = Registry.standard
    let source = try! Registry.standard.encode(Pattern.photo(width: 320, height: 240), options: EncodeOptions(format: .png))

    func target(_ name: String, _ specs: [String], format: ImageFormat = .png) throws -> RenderTarget {
        RenderTarget(
            name: name, chain: FilterChain(try specs.map { try registry.filter(parsing: $0) }),
            encoding: VariantEncoding(format: format))
    }

    @Test("two chains sharing a prefix run it once; each tail runs once; one decode")
    func sharedPrefix() throws {
        let counters = StageCounters()
        let targets = [
            try target("a", ["grayscale", "circle"]),
            try target("b", ["grayscale", "rounded-corners(radius=8)"]),
            try target("c", ["grayscale", "circle", "blur(sigma=1)"]),
        ]
        let results = try VariantRenderer(registry: registry).render(source, targets: targets, counters: counters)
        #expect(results.map(\.name) == ["a", "b", "c"])
        #expect(counters.decodes == 1)
        #expect(counters.filterRuns["grayscale"] == 1)
        #expect(counters.filterRuns["grayscale|circle"] == 1)
        #expect(counters.filterRuns["grayscale|rounded-corners(radius=8)"] == 1)
        #expect(counters.totalFilterRuns == 4)
        #expect(counters.encodes == 3)
    }

    @Test("variants with equal identifiers are computed and encoded once, whatever their names")
    func dedup() throws {
        let counters = StageCounters()
        let targets = [try target("x", ["negate"]), try target("y", ["negate"])]
        let results = try VariantRenderer(registry: registry).render(source, targets: targets, counters: counters)
        #expect(counters.totalFilterRuns == 1)
        #expect(counters.encodes == 1)
        #expect(results[0].bytes == results[1].bytes)
        #expect(results[0].identifier == results[1].identifier)
    }

    @Test("the same chain with different encoder settings shares the filter work, not the encode")
    func differentEncoding() throws {
        let counters = StageCounters()
        let targets = [try target("png", ["negate"]), try target("webp", ["negate"], format: .webp)]
        let results = try VariantRenderer(registry: registry).render(source, targets: targets, counters: counters)
        #expect(counters.totalFilterRuns == 1)
        #expect(counters.encodes == 2)
        #expect(results.map(\.format) == [.png, .webp])
    }

    @Test("a variant without a format keeps the source's, or falls back when it cannot be written")
    func autoFormat() throws {
        let renderer = VariantRenderer(registry: registry)
        let auto = RenderTarget(name: "auto", chain: .empty, encoding: VariantEncoding())
        #expect(try renderer.render(source, targets: [auto])[0].format == .png)
        let tga = Fixtures.bytes("gradient.tga")
        #expect(try renderer.render(tga, targets: [auto])[0].format == .jpeg)
    }

    @Test("the decode hint is the largest any chain needs, or full size when one needs every pixel")
    func decodeHint() {
        let size = PixelSize(width: 1000, height: 800)
        #expect(VariantRenderer.decodeHint(for: [], sourceSize: size) == nil)
        #expect(VariantRenderer.decodeHint(for: [FilterChain.empty], sourceSize: size) == nil)
    }

    @Test("bad input fails with the input's error, not a crash")
    func badInput() {
        #expect(throws: DarkroomError.emptyInput) {
            try VariantRenderer(registry: registry).render([], targets: [])
        }
        #expect(throws: DarkroomError.self) {
            try VariantRenderer(registry: registry).render(Fixtures.bytes("truncated.jpg"), targets: [])
        }
    }
}
