import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomCore
import DarkroomExampleFilters
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - The shipped configuration

@Suite("The shipped filters.d is valid, embedded, and renders")
struct DefaultConfigTests {
    static let folder = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("filters.d").path

    @Test("the embedded copy equals filters.d (run scripts/embed-default-config.py after editing it)")
    func embeddedMatches() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".toml") }.sorted()
        #expect(EmbeddedDefaultConfig.files.map(\.name) == names)
        for (name, text) in EmbeddedDefaultConfig.files {
            let onDisk = try String(contentsOfFile: Self.folder + "/" + name, encoding: .utf8)
            #expect(text == onDisk.trimmingCharacters(in: .newlines), "\(name) differs from its embedded copy")
        }
    }

    @Test("the shipped filters.d has no errors with the standard filters plus the example module")
    func valid() {
        let configuration = ConfigLoader.load(directory: Self.folder, filters: ShippedRegistry.registry.filters)
        #expect(configuration.diagnostics.isEmpty, "\(configuration.diagnostics.map(\.description))")
        for name in ["thumbnail", "square", "preview", "hero", "placeholder", "avatar", "avatar-small", "rounded", "vignetted"] {
            #expect(configuration.variant(named: name) != nil, "missing \(name)")
        }
    }

    @Test("every shipped variant renders a real photo with the size its chain promises")
    func rendersAll() throws {
        let configuration = ConfigLoader.load(directory: Self.folder, filters: ShippedRegistry.registry.filters)
        let source = try Registry.standard.encode(Pattern.photo(width: 1200, height: 800), options: EncodeOptions(format: .jpeg, quality: 90))
        let counters = StageCounters()
        let results = try VariantRenderer(registry: ShippedRegistry.registry)
            .render(source, targets: configuration.variants.map(RenderTarget.init), counters: counters)
        let sizes = Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0.image.size) })
        #expect(sizes["thumbnail"] == PixelSize(width: 256, height: 171))
        #expect(sizes["square"] == PixelSize(width: 200, height: 200))
        #expect(sizes["avatar"] == PixelSize(width: 128, height: 128))
        #expect(sizes["avatar-small"] == PixelSize(width: 64, height: 64))
        #expect(sizes["placeholder"] == PixelSize(width: 32, height: 21))
        #expect(sizes["original"] == PixelSize(width: 1200, height: 800))
        // One decode per distinct shrink-on-load scale (here full size for the original and
        // hero, and the DCT scales the smaller variants pick).
        let header = try ImageProbe.probe(source)
        let scales = Set(try configuration.variants.map { variant in
            try Registry.standard.canonicalDecode(
                header, sizeHint: RenderTarget(variant: variant).chain.sizeHint(forSourceSize: header.uprightSize)).options.sizeHint
        })
        #expect(counters.decodes == scales.count)
        #expect(scales.count < configuration.variants.count)
        for result in results {
            let header = try ImageProbe.probe(result.bytes)
            #expect(header.size == result.image.size, "\(result.name)")
        }
    }
}

/// The registry the darkroom tool uses: standard + the example extension module.
enum ShippedRegistry {
    static let registry: Registry = {
        var registry = Registry.standard
        ExampleFilters.register(in: &registry)
        return registry
    }()
}
