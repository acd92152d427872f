import Darkroom
import DarkroomCore
import Testing

// MARK: - Download order

@Suite("Queued downloads start by priority, then FIFO or LIFO, and promotion moves them ahead")
struct PipelineSchedulingTests {
    let names = ["a", "b", "c", "d"]

    func pipeline(_ order: ImagePipeline.QueueOrder) -> (ImagePipeline, GatedSource) {
        let source = GatedSource(Dictionary(uniqueKeysWithValues: names.map { ($0, PipelineFixture.photoJPEG) }))
        var configuration = PipelineFixture.configuration(source: source)
        configuration.maximumActiveDownloads = 1
        configuration.queueOrder = order
        return (ImagePipeline(configuration: configuration), source)
    }

    /// Starts `a` (which takes the only download slot), then queues the others in order.
    func enqueue(
        _ pipeline: ImagePipeline, _ source: GatedSource, priorities: [ImagePriority] = [.normal, .normal, .normal]
    ) async -> [ImageTask] {
        let first = pipeline.request(ImageRequest(location: "gated:a", variant: .named("gray")))
        #expect(await eventually { source.started == ["gated:a"] })
        var tasks = [first]
        for (index, name) in names.dropFirst().enumerated() {
            tasks.append(pipeline.request(ImageRequest(location: "gated:\(name)", variant: .named("gray"), priority: priorities[index])))
            #expect(await eventually { pipeline.activity.queuedDownloads == index + 1 })
        }
        return tasks
    }

    func finish(_ tasks: [ImageTask], _ source: GatedSource) async throws {
        source.openAll()
        for task in tasks { _ = try await task.response }
    }

    @Test("FIFO: equal priorities start in the order they were asked for")
    func fifo() async throws {
        let (pipeline, source) = pipeline(.fifo)
        let tasks = await enqueue(pipeline, source)
        #expect(pipeline.activity.queuedDownloadKeys == ["gated:b", "gated:c", "gated:d"])
        try await finish(tasks, source)
        #expect(source.started == ["gated:a", "gated:b", "gated:c", "gated:d"])
    }

    @Test("LIFO: equal priorities start newest first, as a scrolling client wants")
    func lifo() async throws {
        let (pipeline, source) = pipeline(.lifo)
        let tasks = await enqueue(pipeline, source)
        try await finish(tasks, source)
        #expect(source.started == ["gated:a", "gated:d", "gated:c", "gated:b"])
    }

    @Test("higher priorities start first whatever the order")
    func priorities() async throws {
        let (pipeline, source) = pipeline(.fifo)
        let tasks = await enqueue(pipeline, source, priorities: [.low, .normal, .veryHigh])
        try await finish(tasks, source)
        #expect(source.started == ["gated:a", "gated:d", "gated:c", "gated:b"])
    }

    @Test("raising a queued task's priority moves its download ahead at once")
    func promotion() async throws {
        let (pipeline, source) = pipeline(.fifo)
        let tasks = await enqueue(pipeline, source, priorities: [.low, .low, .low])
        tasks[2].priority = .veryHigh
        #expect(tasks[2].priority == .veryHigh)
        #expect(pipeline.activity.queuedDownloadKeys == ["gated:c", "gated:b", "gated:d"])
        tasks[2].priority = .veryLow
        #expect(pipeline.activity.queuedDownloadKeys == ["gated:b", "gated:d", "gated:c"])
        tasks[3].priority = .high
        try await finish(tasks, source)
        #expect(source.started == ["gated:a", "gated:d", "gated:b", "gated:c"])
    }

    @Test("a shared download runs at the highest priority of the requests waiting on it")
    func sharedPriority() async throws {
        let (pipeline, source) = pipeline(.fifo)
        let tasks = await enqueue(pipeline, source, priorities: [.normal, .normal, .normal])
        // A second, urgent request for d's source (another variant) lifts d's download.
        let urgent = pipeline.request(ImageRequest(location: "gated:d", variant: .named("circle"), priority: .veryHigh))
        #expect(await eventually { pipeline.activity.queuedDownloadKeys.first == "gated:d" })
        try await finish(tasks + [urgent], source)
        #expect(source.started == ["gated:a", "gated:d", "gated:b", "gated:c"])
    }
}
