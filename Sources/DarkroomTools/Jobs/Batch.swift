import Darkroom
import DarkroomConfig
import DarkroomCore
import FoundationEssentials
import Synchronization
import DarkroomSources

// MARK: - Batch

/// Renders variants of many inputs into a folder: `OUT/<variant>/<relative stem>.<ext>`.
/// Each input is read once and decoded once per scale its variants need; inputs run on `jobs` threads;
/// one failure does not stop the rest.
///
/// ```swift
/// let found = BatchInput.expandAll(["photos", "extra.jpg"])
/// let batch = Batch(inputs: found.inputs, unusable: found.unusable, targets: targets, outputDirectory: "out")
/// let renderer = CachingRenderer(renderer: VariantRenderer(registry: .standard))
/// let summary = batch.run(renderer: renderer, jobs: 2) { event in print(event) }
/// print(summary.succeeded, summary.failures.count)
/// ```
public struct Batch: Sendable {
    /// The files and URLs to render, in the order given.
    public var inputs: [BatchInput]
    /// Arguments that named no usable input (a missing file, a malformed URL): reported as
    /// failures of this batch, first, while the inputs are rendered.
    public var unusable: [Failure]
    /// The variants rendered from every input; each names its output subfolder.
    public var targets: [RenderTarget]
    /// The folder the outputs are written under (`OUT`), one subfolder per variant.
    public var outputDirectory: String
    /// Output folders cleared of what killed runs left, once each.
    private let sweptFolders = TemporaryFileSweep()

    /// Creates a batch rendering every one of `targets` from each of `inputs` into `outputDirectory`;
    /// `unusable` are arguments already found unusable, reported as failures.
    public init(inputs: [BatchInput], unusable: [Failure] = [], targets: [RenderTarget], outputDirectory: String) {
        self.inputs = inputs
        self.unusable = unusable
        self.targets = targets
        self.outputDirectory = outputDirectory
    }

    // MARK: - Results

    /// One input that failed, and why.
    public struct Failure: Sendable {
        /// The input's path or URL, or the argument that named no usable input.
        public var input: String
        /// Why it failed.
        public var error: any Error
    }

    /// What happened to one input, reported as it finishes.
    public struct Progress: Sendable {
        /// How many inputs have finished so far, this one included.
        public var finished: Int
        /// How many inputs the batch has, unusable arguments included.
        public var total: Int
        /// The input's path or URL (or the argument that named no usable input).
        public var input: String
        /// The paths written for it; empty when it failed.
        public var outputs: [String]
        /// How many of the outputs came from a cache.
        public var cached: Int
        /// Why the input failed; `nil` when it succeeded.
        public var error: (any Error)?
        /// The variants rendered now from an animated input into a format that cannot animate
        /// (their outputs hold its first frame), by variant name.
        public var flattened: [(variant: String, flattening: AnimationFlattening)] = []
    }

    /// The outcome of a whole batch.
    public struct Summary: Sendable {
        /// How many inputs were rendered and written without an error.
        public var succeeded: Int
        /// The inputs that failed, in the order they were given (unusable arguments first).
        public var failures: [Failure]
        /// How many output files were written.
        public var outputs: Int
        /// How long the batch took, wall-clock, in seconds.
        public var seconds: Double
        /// Inputs finished (succeeded or failed) per second.
        public var imagesPerSecond: Double { seconds > 0 ? Double(succeeded + failures.count) / seconds : 0 }
    }

    // MARK: - Running

    /// Runs the batch, calling `progress` (from any thread, serialised) after each input.
    ///
    /// With a `pipeline`, files and URLs alike are its requests: the URLs all at once (its
    /// queues bound the downloads and the processing), the files in ``BatchSchedule`` order,
    /// two per processing slot in flight, so the next file is read while one is rendered.
    /// `jobs` should be the pipeline's processing slots; the pipeline counts its work in its
    /// configuration's counters. Without one, files are rendered by `jobs` worker threads
    /// (1 = on the calling thread only) through `renderer`, counted in `counters`, and each URL
    /// input fails.
    public func run(
        renderer: CachingRenderer, pipeline: ImagePipeline? = nil, jobs: Int = 1, counters: StageCounters? = nil,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) -> Summary {
        struct State {
            var next = 0
            var finished = 0
            var succeeded = 0
            var outputs = 0
            var failures: [Failure] = []
        }
        let state = Mutex(State())
        let start = Date()
        let collisions = collidingStems()
        // With several workers, the most expensive files go first and the tail is balanced
        // (see BatchSchedule); results are reported as they finish either way.
        let localFiles = inputs.filter { !$0.isURL }
        let files = jobs > 1
            ? BatchSchedule.ordered(
                localFiles, targets: targets, workers: min(jobs, localFiles.count),
                registry: pipeline?.configuration.registry ?? renderer.renderer.registry) : localFiles
        let urls = inputs.filter(\.isURL)
        let total = unusable.count + inputs.count
        let finish: @Sendable (BatchInput, [String], Int, (any Error)?, [(variant: String, flattening: AnimationFlattening)]) -> Void = {
            input, written, cached, failure, flattened in
            state.withLock { s in
                s.finished += 1
                if let failure {
                    s.failures.append(Failure(input: input.path, error: failure))
                } else {
                    s.succeeded += 1
                    s.outputs += written.count
                }
                progress(Progress(
                    finished: s.finished, total: total, input: input.path, outputs: written, cached: cached, error: failure,
                    flattened: flattened))
            }
        }
        let checkCollision: @Sendable (BatchInput) throws -> Void = { input in
            if let first = collisions[input.relativeStem], first != input.path {
                throw DarkroomError.io(
                    path: input.path, detail: "its outputs would overwrite those of \(first) (same name); rename one")
            }
        }
        // The index of the next file to take, or `nil` when all are taken.
        let nextFile: @Sendable () -> Int? = {
            state.withLock { s in
                guard s.next < files.count else { return nil }
                defer { s.next += 1 }
                return s.next
            }
        }
        let fileWorker: @Sendable () -> Void = {
            while true {
                guard let index = nextFile() else { return }
                let input = files[index]
                do {
                    try checkCollision(input)
                    let (written, cached, flattened) = try renderReporting(input, renderer: renderer, counters: counters)
                    finish(input, written, cached, nil, flattened)
                } catch {
                    finish(input, [], 0, error, [])
                }
            }
        }
        let renderOnPipeline: @Sendable (BatchInput) async -> Void = { input in
            do {
                try checkCollision(input)
                let (written, cached, flattened) = try await fetchAndRenderReporting(input, pipeline: pipeline)
                finish(input, written, cached, nil, flattened)
            } catch {
                finish(input, [], 0, error, [])
            }
        }
        let pipelineLane: @Sendable (ImagePipeline) -> Void = { pipeline in
            guard !inputs.isEmpty else { return }
            // On the pipeline's threads (the writes block them), never needing the cooperative
            // pool, which a caller on a cooperative thread would be blocking. With shared threads
            // (`darkroom batch`) this thread is lent to the pipeline and works until the end.
            _ = try? BlockingWait.run(on: pipeline.executor) {
                await withTaskGroup(of: Void.self) { group in
                    for input in urls {
                        group.addTask { await renderOnPipeline(input) }
                    }
                    // Files in schedule order, two per processing slot in flight, so the next
                    // files are read while others are rendered.
                    for _ in 0..<(min(files.count, 2 * max(1, jobs))) {
                        group.addTask {
                            while let index = nextFile() { await renderOnPipeline(files[index]) }
                        }
                    }
                }
            }
        }
        for failure in unusable {
            state.withLock { s in
                s.finished += 1
                s.failures.append(failure)
                progress(Progress(
                    finished: s.finished, total: total, input: failure.input, outputs: [], cached: 0, error: failure.error))
            }
        }
        if let pipeline {
            // Files and URLs alike are requests to the pipeline, whose queues bound the work.
            pipelineLane(pipeline)
        } else {
            for input in urls {
                do {
                    try checkCollision(input)
                    throw Self.noPipeline(for: input)
                } catch {
                    finish(input, [], 0, error, [])
                }
            }
            // One worker per lane, the first on this thread; SpreadThreads starts each other
            // worker on its own CPU.
            SpreadThreads.run(lanes: max(files.isEmpty ? 0 : 1, min(jobs, files.count))) { _ in fileWorker() }
        }
        return state.withLock { s in
            // The unusable arguments first, then the inputs, each in the order given.
            let named = unusable.map(\.input) + inputs.map(\.path)
            let order = Dictionary(named.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return Summary(
                succeeded: s.succeeded,
                failures: s.failures.sorted { (order[$0.input] ?? 0) < (order[$1.input] ?? 0) },
                outputs: s.outputs, seconds: Date().timeIntervalSince(start))
        }
    }

    /// Renders (or takes from the caches) every target of one input file and writes them;
    /// returns the paths written and how many outputs came from a cache.
    public func render(
        _ input: BatchInput, renderer: CachingRenderer, counters: StageCounters? = nil
    ) throws -> (written: [String], cached: Int) {
        let (written, cached, _) = try renderReporting(input, renderer: renderer, counters: counters)
        return (written, cached)
    }

    /// ``render(_:renderer:counters:)``, also naming the variants written as an animation's first frame.
    func renderReporting(
        _ input: BatchInput, renderer: CachingRenderer, counters: StageCounters?
    ) throws -> (written: [String], cached: Int, flattened: [(variant: String, flattening: AnimationFlattening)]) {
        let source = try SourceReference.file(input.path, maxBytes: renderer.renderer.decoding.limits.maxInputBytes)
        let outputs = try renderer.render(source, targets: targets, counters: counters)
        let written = try write(outputs.map { ($0.name, $0.bytes, $0.format) }, for: input)
        let flattened = outputs.compactMap { output in output.flattenedAnimation.map { (output.name, $0) } }
        return (written, outputs.filter { $0.layer != .rendered }.count, flattened)
    }

    /// Fetches a URL input through `pipeline` (which must know this batch's targets by name),
    /// renders every target (sharing the decodes), and writes them.
    public func fetchAndRender(_ input: BatchInput, pipeline: ImagePipeline?) async throws -> (written: [String], cached: Int) {
        let (written, cached, _) = try await fetchAndRenderReporting(input, pipeline: pipeline)
        return (written, cached)
    }

    /// The error of a URL input in a batch run without a pipeline.
    static func noPipeline(for input: BatchInput) -> DarkroomError {
        .noComponent(kind: "source", detail: "'\(input.path)' (this batch has no pipeline for URLs)")
    }

    /// ``fetchAndRender(_:pipeline:)``, also naming the variants written as an animation's first frame.
    func fetchAndRenderReporting(
        _ input: BatchInput, pipeline: ImagePipeline?
    ) async throws -> (written: [String], cached: Int, flattened: [(variant: String, flattening: AnimationFlattening)]) {
        guard let pipeline else { throw Self.noPipeline(for: input) }
        let responses = try await pipeline.images(for: input.path, variants: targets.map(\.name))
        let written = try write(responses.map { ($0.variant, $0.bytes, $0.format) }, for: input)
        let flattened = responses.compactMap { response in response.flattenedAnimation.map { (response.variant, $0) } }
        return (written, responses.filter { $0.cacheLayer.isCache }.count, flattened)
    }

    /// Writes `OUT/<variant>/<stem>.<ext>` for each output.
    /// - Throws: ``DarkroomError/io(path:detail:)`` naming the input when an output path is
    ///   the input file itself (an input inside the output folder), which is left as it was.
    private func write(_ outputs: [(name: String, bytes: [UInt8], format: ImageFormat)], for input: BatchInput) throws -> [String] {
        var written: [String] = []
        let inputID = input.isURL ? nil : FileID(input.path)
        for output in outputs {
            let path = "\(outputDirectory)/\(output.name)/\(input.relativeStem).\(output.format.preferredFileExtension)"
            if let inputID, FileID(path) == inputID {
                throw DarkroomError.io(
                    path: input.path, detail: "its \(output.name) output would overwrite the input (it is in the output folder)")
            }
            sweptFolders.sweepOnce(folderOf: path)
            // Atomic but not flushed: a batch's outputs are reproduced by re-running it, and an
            // fsync per file cost 30% of the wall time of a thumbnail batch.
            try AtomicFileWriter.write(output.bytes, to: path, flushesToDisk: false)
            written.append(path)
        }
        return written
    }

    /// Stems produced by more than one input, mapped to the first input that claims them.
    private func collidingStems() -> [String: String] {
        var first: [String: String] = [:]
        var colliding: [String: String] = [:]
        for input in inputs {
            if let owner = first[input.relativeStem] {
                colliding[input.relativeStem] = owner
            } else {
                first[input.relativeStem] = input.path
            }
        }
        return colliding
    }
}
