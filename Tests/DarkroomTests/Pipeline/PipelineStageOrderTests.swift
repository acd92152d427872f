import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Glibc
import Synchronization
import Testing

// MARK: - Stage order and placement

@Suite("A render's stages follow one another: earlier sources' stages go first, on the thread that ran the last one")
struct PipelineStageOrderTests {
    /// What the recording filters saw, in the order they ran.
    final class StepLog: Sendable {
        struct Entry: Equatable {
            var width: Int
            var step: Int
            var thread: String
        }

        private let entries = Mutex<[Entry]>([])
        /// Step 1 of images this wide waits for ``open()``.
        let gatedWidth: Int?
        private let gate = Mutex(false)
        private let held = Mutex(false)

        /// Whether a gated step has started waiting.
        var isHolding: Bool { held.withLock { $0 } }

        init(gatedWidth: Int? = nil) {
            self.gatedWidth = gatedWidth
        }

        var all: [Entry] { entries.withLock { $0 } }

        func open() { gate.withLock { $0 = true } }

        /// The calling thread's name, from `/proc/thread-self/comm`.
        static func threadName() -> String {
            let file = Glibc.open("/proc/thread-self/comm", O_RDONLY)
            guard file >= 0 else { return "" }
            defer { Glibc.close(file) }
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = Glibc.read(file, &bytes, bytes.count)
            return String(decoding: bytes.prefix(max(0, count)).prefix { $0 != 10 }, as: UTF8.self)
        }

        func record(width: Int, step: Int) {
            if step == 1, width == gatedWidth {
                held.withLock { $0 = true }
                while !gate.withLock({ $0 }) { usleep(1_000) }
            }
            let thread = Self.threadName()
            entries.withLock { $0.append(Entry(width: width, step: step, thread: thread)) }
        }
    }

    /// A filter that records the width it saw, its step and its thread, and passes the image on.
    struct RecordingFilter: ImageFilter {
        let step: Int
        let log: StepLog
        var identifier: String { "record(step=\(step))" }

        func apply(to image: Image) throws -> Image {
            log.record(width: image.width, step: step)
            return image
        }
    }

    static let wide = try! Registry.standard.encode(Pattern.photo(width: 320, height: 240), options: EncodeOptions(format: .jpeg))
    static let narrow = try! Registry.standard.encode(Pattern.photo(width: 200, height: 150), options: EncodeOptions(format: .jpeg))

    func pipeline(_ log: StepLog, source: any ImageSource, slots: Int) -> ImagePipeline {
        let target = RenderTarget(
            name: "recorded", chain: FilterChain([RecordingFilter(step: 1, log: log), RecordingFilter(step: 2, log: log)]),
            encoding: VariantEncoding(format: .png))
        var configuration = PipelineFixture.configuration(source: source, targets: [target], memory: nil)
        configuration.maximumActiveProcessing = slots
        return ImagePipeline(configuration: configuration)
    }

    @Test("with one processing slot, an earlier source's stages go before a later source's that queued first")
    func earlierSourceFirst() async throws {
        // `a` (320 wide) is asked for first, `b` (200 wide) second; `b` arrives first and holds
        // the slot in its first filter while `a` queues its decode. Once `b`'s filter ends,
        // `a` (the earlier request) runs through, then `b` goes on.
        let log = StepLog(gatedWidth: 200)
        let source = GatedSource(["a": Self.wide, "b": Self.narrow])
        let pipeline = pipeline(log, source: source, slots: 1)
        let first = pipeline.request(ImageRequest(location: "gated:a", variant: .named("recorded")))
        #expect(await eventually { source.started == ["gated:a"] })
        let second = pipeline.request(ImageRequest(location: "gated:b", variant: .named("recorded")))
        #expect(await eventually { source.started == ["gated:a", "gated:b"] })
        source.open("gated:b")
        #expect(await eventually { log.isHolding })
        source.open("gated:a")
        #expect(await eventually { pipeline.activity.queuedProcessing == 1 })
        log.open()
        _ = try await first.response
        _ = try await second.response
        #expect(log.all.map { "\($0.width).\($0.step)" } == ["200.1", "320.1", "320.2", "200.2"])
    }

    @Test("a render's stages run on one processing thread, one render after another")
    func oneThreadPerRender() async throws {
        let log = StepLog()
        let names = (0..<8).map { "s\($0)" }
        let source = GatedSource(Dictionary(uniqueKeysWithValues: names.map { ($0, Self.wide) }))
        source.openAll()
        let pipeline = pipeline(log, source: source, slots: 4)
        for name in names {
            _ = try await pipeline.request(ImageRequest(location: "gated:\(name)", variant: .named("recorded"))).response
        }
        let entries = log.all
        #expect(entries.count == 16)
        for render in stride(from: 0, to: entries.count - 1, by: 2) {
            #expect(entries[render].step == 1 && entries[render + 1].step == 2)
            #expect(entries[render].thread.hasPrefix("darkroom.proc"))
            #expect(entries[render].thread == entries[render + 1].thread)
        }
    }
}
