import Darkroom
import DarkroomConfig
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - strip = false through the render engine

/// A source carrying all three parts (EXIF with orientation 6, XMP, Adobe RGB), rendered by
/// both executors to JPEG, PNG and WebP with `strip = false`, and once with the default.
@Suite("strip = false keeps EXIF (orientation 1), XMP and a still-valid profile through both executors")
struct KeptMetadataRenderTests {
    static let formats: [ImageFormat] = [.jpeg, .png, .webp]

    /// A 48×32 JPEG, stored sideways (orientation 6), with the sample metadata.
    static func source() throws -> [UInt8] {
        try Registry.standard.encode(
            Pattern.photo(width: 48, height: 32), options: EncodeOptions(format: .jpeg, quality: 90, keepsMetadata: true),
            metadata: MetadataSamples.all)
    }

    static func targets() throws -> [RenderTarget] {
        try formats.map { format in
            try RenderTarget(name: "kept-\(format.rawValue)", filters: [.scale(width: 16, height: 24)], encoding: VariantEncoding(format: format, strip: false))
        } + [try RenderTarget(name: "stripped", filters: [.scale(width: 16, height: 24)], encoding: VariantEncoding(format: .jpeg))]
    }

    @Test("EXIF and XMP come out, the orientation reset, the converted profile left out; the default strips all")
    func inlineExecutor() throws {
        let outputs = try VariantRenderer(registry: .standard).render(try Self.source(), targets: try Self.targets())
        for output in outputs.prefix(3) {
            let metadata = ImageMetadata(reading: output.bytes, format: output.format)
            #expect(metadata.exif == MetadataSamples.exif(orientation: 1), "\(output.name)")
            #expect(metadata.xmp == MetadataSamples.xmp, "\(output.name)")
            #expect(metadata.iccProfile == nil, "\(output.name): the pixels were converted to sRGB")
            #expect(try ImageProbe.probe(output.bytes).size == PixelSize(width: 16, height: 24))
            #expect(output.identifier.hasSuffix(",strip=false)"))
        }
        let stripped = try #require(outputs.last)
        #expect(ImageMetadata(reading: stripped.bytes, format: .jpeg).isEmpty)
        #expect(!stripped.identifier.contains("strip"))
    }

    @Test("a decode that leaves the colours as stored keeps the Adobe RGB profile")
    func unconvertedProfileKept() throws {
        let renderer = VariantRenderer(registry: .standard, decoding: DecodeOptions(colorProfiles: .ignore))
        let outputs = try renderer.render(try Self.source(), targets: try Self.targets())
        for output in outputs.prefix(3) {
            let header = try ImageProbe.probe(output.bytes)
            // The decoder's reader: PNG's profile is compressed, libpng inflates it.
            let read = try Registry.standard.decoder(for: header, options: DecodeOptions()).metadata(in: output.bytes, header: header)
            #expect(read.iccProfile == MetadataSamples.adobeRGB, "\(output.name)")
        }
    }

    @Test("the staged pipeline renders the same bytes under the same identifiers")
    func stagedExecutorAgrees() async throws {
        let folder = try TemporaryDirectory()
        try Data(try Self.source()).write(to: folder.url.appendingPathComponent("tagged.jpg"))
        var registry = Registry.standard
        registry.register(source: try FileSource(root: folder.url.path))
        let targets = try Self.targets()
        let pipeline = ImagePipeline(configuration: .init(registry: registry, targets: targets, caches: .none))
        let responses = try await pipeline.images(for: "tagged.jpg", variants: targets.map(\.name))
        let inline = try VariantRenderer(registry: .standard).render(try Self.source(), targets: targets)
        for (response, output) in zip(responses, inline) {
            #expect(response.bytes == output.bytes, "\(output.name)")
        }
    }
}
