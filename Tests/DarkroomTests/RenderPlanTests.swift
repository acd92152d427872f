import Darkroom
import DarkroomCache
import DarkroomConfig
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Testing

// MARK: - The one render plan

@Suite("A render plan is worked out from the header alone, and both executors run it")
struct RenderPlanTests {
    let registry = Registry.standard

    func target(_ name: String, _ specs: [String], format: ImageFormat? = .png) throws -> RenderTarget {
        RenderTarget(
            name: name, chain: FilterChain(try specs.map { try registry.filter(parsing: $0) }),
            encoding: VariantEncoding(format: format))
    }

    @Test("targets needing the same scale share one decode, in order of first appearance; a full-size target gets its own")
    func decodeGroups() throws {
        let header = ImageHeader(format: .jpeg, width: 1600, height: 1200)
        let big = try target("big", ["aspect-fit(height=800,width=800)"], format: .jpeg)
        let thumb = try target("thumb", ["aspect-fit(height=100,width=100)"], format: .jpeg)
        let avatar = try target("avatar", ["aspect-fill(height=64,width=64)", "circle"])
        let plan = try RenderPlan(header: header, targets: [big, thumb, avatar], registry: registry)
        #expect(plan.decodes.map(\.targets) == [[0], [1, 2]])
        #expect(plan.decodes.map(\.options.sizeHint) == [nil, PixelSize(width: 200, height: 150)])
        // The same target planned alone decodes at the same scale: company does not change it.
        let alone = try RenderPlan(header: header, targets: [avatar], registry: registry)
        #expect(alone.decodes.map(\.options.sizeHint) == [PixelSize(width: 200, height: 150)])
    }

    @Test("a resize followed by a blur decodes at the DCT scale that covers its output; without the blur, with the residual")
    func blurredResizeDecodesSmaller() throws {
        let header = ImageHeader(format: .jpeg, width: 2560, height: 1600)
        let sharp = try target("sharp", ["aspect-fit(height=16384,width=1024)"], format: .jpeg)
        let soft = try target("soft", ["aspect-fit(height=16384,width=1024)", "blur(sigma=4)"], format: .jpeg)
        let plan = try RenderPlan(header: header, targets: [sharp, soft], registry: registry)
        #expect(plan.decodes.map(\.targets) == [[0], [1]])
        // 1024 wide needs 1792 with the residual (full size); blurred, 1/2 (1280×800) is enough.
        #expect(plan.decodes.map(\.options.sizeHint) == [nil, PixelSize(width: 1280, height: 800)])
    }

    @Test("prefix keys name every chain prefix; cache keys follow the one rule")
    func keys() throws {
        let chain = try target("a", ["grayscale", "circle", "blur(sigma=1)"])
        let plan = try RenderPlan(header: ImageHeader(format: .png, width: 10, height: 10), targets: [chain], registry: registry)
        #expect(plan.prefixKeys(of: 0) == ["grayscale", "grayscale|circle", "grayscale|circle|blur(sigma=1)"])
        #expect(plan.cacheKey(of: 0, sourceKey: "/a.png", fingerprint: "f")
            == CacheKey.rendered(sourceKey: "/a.png", fingerprint: "f", variant: chain.identifier))
    }

    @Test("a header over the limits, or an output its encoder cannot write, is refused with no pixels at hand")
    func refusedFromTheHeader() throws {
        var decoding = DecodeOptions()
        decoding.limits.maxPixels = 1_000
        #expect(throws: DarkroomError.self) {
            try RenderPlan(header: ImageHeader(format: .png, width: 100, height: 100), targets: [], registry: registry, decoding: decoding)
        }
        let whole = try target("whole", [], format: .png)
        #expect {
            try RenderPlan(header: ImageHeader(format: .bmp, width: 1, height: 100_000_000), targets: [whole], registry: registry)
        } throws: { error in
            if case DarkroomError.outputTooLarge = error { return true }
            return false
        }
    }

    @Test("a filter output over the configured pixel limit is refused from the header, naming the filter and max-pixels")
    func filterOutputOverTheLimit() throws {
        var decoding = DecodeOptions()
        decoding.limits.maxPixels = 262_144
        let header = ImageHeader(format: .jpeg, width: 24, height: 16)
        let enlarge = try target("enlarge", ["grayscale", "aspect-fit(width=9166)", "circle"])
        #expect {
            try RenderPlan(header: header, targets: [enlarge], registry: registry, decoding: decoding)
        } throws: { error in
            "\(error)" == "invalid aspect-fit output '9166×6111 (56 megapixels)': expected at most 262144 pixels (max-pixels)"
        }
        // Every frame counts, as in decoding: 3 frames of 300×200 are 180,000 pixels.
        var animated = ImageHeader(format: .gif, width: 24, height: 16)
        animated.frameCount = 3
        decoding.limits.maxPixels = 150_000
        #expect {
            try RenderPlan(header: animated, targets: [try target("t", ["extend(right=276,bottom=184)"])], registry: registry, decoding: decoding)
        } throws: { error in
            "\(error)" == "invalid extend output '3 frames of 300×200 (180000 pixels)': expected at most 150000 pixels (max-pixels)"
        }
        // Within the limit, and after a filter the pixels decide (trim), the plan stands.
        decoding.limits.maxPixels = 200_000
        _ = try RenderPlan(header: animated, targets: [try target("t", ["extend(right=276,bottom=184)"])], registry: registry, decoding: decoding)
        _ = try RenderPlan(header: header, targets: [try target("t", ["trim", "aspect-fit(width=9166)"])], registry: registry, decoding: decoding)
    }

    @Test("the output format: the variant's, else the source's when writable, else PNG with alpha and JPEG without")
    func outputFormat() throws {
        let opaque = Pattern.photo(width: 4, height: 4)
        let same = VariantEncoding()
        #expect(RenderPlan.outputFormat(for: VariantEncoding(format: .webp), source: .png, image: opaque, registry: registry) == .webp)
        #expect(RenderPlan.outputFormat(for: same, source: .png, image: opaque, registry: registry) == .png)
        #expect(RenderPlan.outputFormat(for: same, source: .tga, image: opaque, registry: registry) == .jpeg)
    }

    // MARK: - Decode options as one value

    @Test("colorProfiles: .ignore reaches the decode through the inline and the staged executor alike")
    func colorProfilesReachBothExecutors() async throws {
        let bytes = Fixtures.bytes("icc-adobe-rgb.jpg")
        let keep = try target("keep", ["aspect-fit(height=64,width=64)"])
        var ignoring = DecodeOptions()
        ignoring.colorProfiles = .ignore
        let converted = try VariantRenderer(registry: registry).render(bytes, targets: [keep])[0].bytes
        let asStored = try VariantRenderer(registry: registry, decoding: ignoring).render(bytes, targets: [keep])[0].bytes
        #expect(converted != asStored, "the Adobe RGB profile changes the pixels unless ignored")

        var sources = registry
        sources.register(source: MemorySource(["adobe": bytes]))
        var configuration = ImagePipeline.Configuration(registry: sources, targets: [keep], caches: .none)
        configuration.decoding = ignoring
        let staged = try await ImagePipeline(configuration: configuration).image(for: "memory:adobe", variant: "keep")
        #expect(staged.bytes == asStored)
    }
}
