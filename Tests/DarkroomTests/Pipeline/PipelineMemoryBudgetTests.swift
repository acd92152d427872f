import DarkroomConfig
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Synchronization
import Testing
@testable import Darkroom

// MARK: - Decoded pixels count against the budget until their render ends

@Suite("The memory budget counts a decode's pixels until the renders of its source end")
struct PipelineMemoryBudgetTests {
    /// Decode starts and encode ends, in the order they happened, tagged with the image width.
    final class Timeline: Sendable {
        let events = Mutex<[(event: String, width: Int)]>([])
        func record(_ event: String, _ width: Int) { events.withLock { $0.append((event, width)) } }
    }

    /// The standard decoders, recording when each decode starts.
    struct RecordingDecoder: ImageDecoder {
        let name = "recording"
        let timeline: Timeline
        func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool { true }
        func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
            timeline.record("decode", header.width)
            return try Registry.standard.decode(bytes, options: options)
        }
        func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? {
            (try? Registry.standard.decoder(for: header, options: options))?.canonicalSizeHint(for: header, options: options)
        }
    }

    /// The standard PNG encoder, recording when each encode ends.
    struct RecordingEncoder: ImageEncoder {
        let name = "recording"
        let format = ImageFormat.png
        let timeline: Timeline
        func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
            defer { timeline.record("encoded", image.width) }
            return try Registry.standard.encode(image, options: options)
        }
    }

    static func pipeline(images: [String: [UInt8]], timeline: Timeline, targets: [RenderTarget], budget: Int) -> ImagePipeline {
        var registry = Registry()
        registry.register(decoder: RecordingDecoder(timeline: timeline))
        registry.register(encoder: RecordingEncoder(timeline: timeline))
        registry.registerStandardCodecs()
        registry.registerStandardFilters()
        registry.register(source: MemorySource(images))
        var configuration = ImagePipeline.Configuration(registry: registry, targets: targets, caches: .none)
        configuration.maximumActiveProcessing = 2
        configuration.decodeMemoryBudget = budget
        return ImagePipeline(configuration: configuration)
    }

    @Test("four images that do not fit the budget two at a time are decoded, filtered and encoded one after another")
    func oneAtATime() async throws {
        // 4 images of ~4 MB of pixels each, a budget of 6 MB: only one fits at a time.
        var images: [String: [UInt8]] = [:]
        for i in 0..<4 {
            images["\(i)"] = try Registry.standard.encode(
                Pattern.photo(width: 1000 + i, height: 1000), options: EncodeOptions(format: .png, compressionLevel: 1))
        }
        let timeline = Timeline()
        let original = RenderTarget(name: "original", chain: FilterChain([]), encoding: VariantEncoding(format: .png))
        let pipeline = Self.pipeline(images: images, timeline: timeline, targets: [original], budget: 6_000_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in images.keys {
                group.addTask { _ = try await pipeline.image(for: "memory:" + name, variant: "original") }
            }
            try await group.waitForAll()
        }
        let events = timeline.events.withLock { $0 }
        #expect(events.count == 8)
        // Each decode is followed by its own encode before the next decode starts.
        for pair in stride(from: 0, to: events.count - 1, by: 2) {
            let decode = events[pair], encoded = events[pair + 1]
            #expect(decode.event == "decode" && encoded.event == "encoded" && encoded.width == decode.width, "\(events)")
        }
    }

    @Test("two decodes of one source at different scales, each larger than the budget, both run (no wait on itself)")
    func sameSessionDecodes() async throws {
        let jpeg = try Registry.standard.encode(Pattern.photo(width: 1600, height: 1200), options: EncodeOptions(format: .jpeg))
        let timeline = Timeline()
        let small = RenderTarget(
            name: "small", chain: FilterChain([try Registry.standard.filter(parsing: "aspect-fit(height=100,width=100)")]),
            encoding: VariantEncoding(format: .png))
        let full = RenderTarget(name: "full", chain: FilterChain([]), encoding: VariantEncoding(format: .png))
        let pipeline = Self.pipeline(images: ["a": jpeg], timeline: timeline, targets: [small, full], budget: 1_000)
        let responses = try await pipeline.images(for: "memory:a", variants: ["small", "full"])
        #expect(responses.map(\.variant) == ["small", "full"])
        #expect(timeline.events.withLock { $0.filter { $0.event == "decode" }.count } == 2)
    }
}
