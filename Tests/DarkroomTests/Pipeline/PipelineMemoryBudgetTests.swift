import DarkroomConfig
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Glibc
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
        configuration.memoryBudget = budget
        return ImagePipeline(configuration: configuration)
    }

    @Test("four images that do not fit the budget two at a time are decoded, filtered and encoded one after another")
    func oneAtATime() async throws {
        // 4 images of ~4 MB of pixels each, counted with a working copy as ~8 MB, a budget
        // of 12 MB: only one fits at a time.
        var images: [String: [UInt8]] = [:]
        for i in 0..<4 {
            images["\(i)"] = try Registry.standard.encode(
                Pattern.photo(width: 1000 + i, height: 1000), options: EncodeOptions(format: .png, compressionLevel: 1))
        }
        let timeline = Timeline()
        let original = RenderTarget(name: "original", chain: FilterChain([]), encoding: VariantEncoding(format: .png))
        let pipeline = Self.pipeline(images: images, timeline: timeline, targets: [original], budget: 12_000_000)
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

    /// The standard PNG encoder, holding every encode until ``open()``: the render that
    /// holds the budget stays in flight as long as a test needs.
    final class GatedEncoder: ImageEncoder, Sendable {
        let name = "gated"
        let format = ImageFormat.png
        private let isOpen = Atomic(false)
        private let entered = Atomic(0)
        func open() { isOpen.store(true, ordering: .releasing) }
        /// Encodes that started.
        var started: Int { entered.load(ordering: .acquiring) }
        func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
            entered.add(1, ordering: .acquiringAndReleasing)
            while !isOpen.load(ordering: .acquiring) { usleep(1_000) }
            return try Registry.standard.encode(image, options: options)
        }
    }

    @Test("a decode that waits past the queue timeout for room fails as busy; once the budget frees, the same request renders")
    func busyAfterQueueTimeout() async throws {
        var images: [String: [UInt8]] = [:]
        for name in ["a", "b"] {
            images[name] = try Registry.standard.encode(
                Pattern.photo(width: 1000, height: 1000), options: EncodeOptions(format: .png, compressionLevel: 1))
        }
        let encoder = GatedEncoder()
        var registry = Registry()
        registry.register(encoder: encoder)
        registry.registerStandardCodecs()
        registry.register(source: MemorySource(images))
        let original = RenderTarget(name: "original", chain: FilterChain([]), encoding: VariantEncoding(format: .png))
        var configuration = ImagePipeline.Configuration(registry: registry, targets: [original], caches: .none)
        configuration.maximumActiveProcessing = 2
        // One image's pixels and working copy (8 MB) fit; two do not.
        configuration.apply(LimitSettings(memory: 10_000_000, queueTimeout: 0.3))
        let pipeline = ImagePipeline(configuration: configuration)

        let first = Task { try await pipeline.image(for: "memory:a", variant: "original") }
        while encoder.started == 0 { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: ImagePipelineBusy(waited: 0.3, budget: 10_000_000)) {
            try await pipeline.image(for: "memory:b", variant: "original")
        }
        encoder.open()
        #expect(try await first.value.bytes.isEmpty == false)
        #expect(try await pipeline.image(for: "memory:b", variant: "original").bytes.isEmpty == false)
    }

    @Test("ImagePipelineBusy says how long it waited, for how much memory, and when to retry")
    func busyDescription() {
        let busy = ImagePipelineBusy(waited: 2.5, budget: 1 << 30)
        #expect(busy.retryAfter == 3)
        #expect(busy.description == "busy: waited 2.5 s for 1024 MB of work in flight to make room (retry after 3 s)")
    }
}
