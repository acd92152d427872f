import Darkroom
import DarkroomConfig
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Rendering several variants of one source

@Suite("Rendering several variants decodes once per scale and computes shared prefixes once")
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

    @Test("a variant renders the same bytes alone as beside variants that need a larger decode")
    func independentOfCompany() throws {
        let jpeg = try registry.encode(Pattern.photo(width: 1600, height: 1200), options: EncodeOptions(format: .jpeg))
        let thumb = try target("thumb", ["aspect-fit(height=100,width=100)"], format: .jpeg)
        let avatar = try target("avatar", ["aspect-fill(height=64,width=64)", "circle"])
        let big = try target("big", ["aspect-fit(height=800,width=800)"], format: .jpeg)
        let renderer = VariantRenderer(registry: registry)
        let alone = try [thumb, avatar, big].map { try renderer.render(jpeg, targets: [$0])[0].bytes }
        let counters = StageCounters()
        let together = try renderer.render(jpeg, targets: [big, thumb, avatar], counters: counters)
        #expect(together.map(\.name) == ["big", "thumb", "avatar"])
        #expect(together.map(\.bytes) == [alone[2], alone[0], alone[1]])
        // thumb and avatar both decode at 1/8 (200×150) and share it; big needs full size.
        #expect(counters.decodes == 2)
        #expect(counters.encodes == 3)
    }

    @Test("the canonical hint names the scale the decoder picks: JPEG DCT scales, PNG exact box factors, none for libgd")
    func canonicalHints() throws {
        let jpeg = ImageHeader(format: .jpeg, width: 1600, height: 1200)
        func canonical(_ header: ImageHeader, _ width: Int, _ height: Int) throws -> PixelSize? {
            try registry.canonicalDecode(header, sizeHint: PixelSize(width: width, height: height)).options.sizeHint
        }
        #expect(try canonical(jpeg, 180, 100) == PixelSize(width: 200, height: 150))
        #expect(try canonical(jpeg, 201, 100) == PixelSize(width: 400, height: 300))
        #expect(try canonical(jpeg, 1000, 10) == nil)
        #expect(try registry.canonicalDecode(jpeg, sizeHint: nil).options.sizeHint == nil)
        let png = ImageHeader(format: .png, width: 5120, height: 2880)
        #expect(try canonical(png, 896, 504) == PixelSize(width: 1024, height: 576))
        #expect(try canonical(png, 5000, 10) == nil)
        let gif = ImageHeader(format: .gif, width: 640, height: 480)
        #expect(try canonical(gif, 10, 10) == nil)
    }

    @Test("bad input fails with the input's error, not a crash")
    func badInput() {
        #expect(throws: DarkroomError.emptyInput) {
            try VariantRenderer(registry: registry).render([], targets: [])
        }
        #expect(throws: DarkroomError.self) {
            try VariantRenderer(registry: registry).render(Fixtures.bytes("truncated.jpg"), targets: [try target("t", ["negate"])])
        }
    }
}
