import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - The order downloads reach the server

@Suite("PipelineHTTP: with one download slot, the server sees queued URLs by priority, then LIFO or FIFO")
struct PipelineHTTPSchedulingTests {
    let http: HTTPPipelineFixture

    init() async throws {
        http = try await HTTPPipelineFixture.start()
    }

    /// `/image/gradient.jpg?test=NAME`: a distinct URL per name.
    func path(_ name: String, _ test: String) -> String {
        "/image/\(HTTPPipelineFixture.imageName)?test=\(test)&n=\(name)"
    }

    func pipeline(_ order: ImagePipeline.QueueOrder) -> ImagePipeline {
        var configuration = http.configuration()
        configuration.maximumActiveDownloads = 1
        configuration.queueOrder = order
        return ImagePipeline(configuration: configuration)
    }

    /// Starts a request for a URL the server holds until ``finish(_:blocker:)`` releases it, which
    /// takes the only download slot; returns once the server has it. The caller then queues
    /// requests behind it.
    func occupySlot(_ pipeline: ImagePipeline, _ test: String) async -> (ImageTask, String) {
        let blocker = "/image/\(HTTPPipelineFixture.imageName)?test=\(test)&n=blocker&hold=\(test)-blocker"
        let task = pipeline.request(ImageRequest(location: http.url(blocker), variant: .named("gray")))
        #expect(await http.server.wait(timeout: 120) { http.server.hits(blocker) == 1 })
        #expect(pipeline.activity.activeDownloads == 1)
        return (task, blocker)
    }

    /// Queues requests for `names` one after the other (each seen queued before the next).
    func enqueue(
        _ pipeline: ImagePipeline, _ names: [String], _ test: String, priority: ImagePriority = .normal
    ) async -> [ImageTask] {
        var tasks: [ImageTask] = []
        for name in names {
            let queuedBefore = pipeline.activity.queuedDownloads
            tasks.append(pipeline.request(ImageRequest(location: http.url(path(name, test)), variant: .named("gray"), priority: priority)))
            #expect(await eventually { pipeline.activity.queuedDownloads == queuedBefore + 1 })
        }
        return tasks
    }

    /// Checks the blocker is still in flight, releases it, and awaits every task.
    func finish(_ tasks: [ImageTask], blocker: String) async throws {
        #expect(http.server.finished(blocker).isEmpty, "the slot was freed before the queue was built")
        http.server.release(String(blocker.split(separator: "=").last ?? ""))  // the path ends hold=NAME
        for task in tasks { _ = try await task.response }
    }

    @Test("LIFO: A, B, C queued behind a busy slot reach the server as C, B, A")
    func lifo() async throws {
        let pipeline = pipeline(.lifo)
        let (first, blocker) = await occupySlot(pipeline, "lifo")
        let queued = await enqueue(pipeline, ["a", "b", "c"], "lifo")
        try await finish([first] + queued, blocker: blocker)
        let order = http.requestOrder(among: [blocker] + ["a", "b", "c"].map { path($0, "lifo") })
        #expect(order == [blocker, path("c", "lifo"), path("b", "lifo"), path("a", "lifo")])
    }

    @Test("FIFO: A, B, C queued behind a busy slot reach the server as A, B, C")
    func fifo() async throws {
        let pipeline = pipeline(.fifo)
        let (first, blocker) = await occupySlot(pipeline, "fifo")
        let queued = await enqueue(pipeline, ["a", "b", "c"], "fifo")
        try await finish([first] + queued, blocker: blocker)
        let order = http.requestOrder(among: [blocker] + ["a", "b", "c"].map { path($0, "fifo") })
        #expect(order == [blocker, path("a", "fifo"), path("b", "fifo"), path("c", "fifo")])
    }

    @Test("raising queued Y's task priority above X's makes the server see Y first")
    func promotedTask() async throws {
        let pipeline = pipeline(.fifo)
        let (first, blocker) = await occupySlot(pipeline, "promote")
        let queued = await enqueue(pipeline, ["x", "y"], "promote", priority: .low)
        queued[1].priority = .high
        #expect(pipeline.activity.queuedDownloadKeys == [http.url(path("y", "promote")), http.url(path("x", "promote"))])
        try await finish([first] + queued, blocker: blocker)
        let order = http.requestOrder(among: [blocker, path("x", "promote"), path("y", "promote")])
        #expect(order == [blocker, path("y", "promote"), path("x", "promote")])
    }

    @Test("a high-priority request for Y's URL (another variant) lifts Y's shared download above X")
    func promotedByNewWaiter() async throws {
        let pipeline = pipeline(.fifo)
        let (first, blocker) = await occupySlot(pipeline, "waiter")
        let queued = await enqueue(pipeline, ["x", "y"], "waiter", priority: .low)
        let urgent = pipeline.request(ImageRequest(location: http.url(path("y", "waiter")), variant: .named("circle"), priority: .high))
        #expect(await eventually { pipeline.activity.queuedDownloadKeys.first == http.url(path("y", "waiter")) })
        #expect(pipeline.activity.queuedDownloads == 2)
        try await finish([first] + queued + [urgent], blocker: blocker)
        let order = http.requestOrder(among: [blocker, path("x", "waiter"), path("y", "waiter")])
        #expect(order == [blocker, path("y", "waiter"), path("x", "waiter")])
        #expect(http.server.hits(path("y", "waiter")) == 1)
    }

    @Test("LIFO: a new request for queued A (same variant) moves A to the front: the server sees A, C, B")
    func lifoDuplicateMovesToFront() async throws {
        let pipeline = pipeline(.lifo)
        let (first, blocker) = await occupySlot(pipeline, "again")
        let queued = await enqueue(pipeline, ["a", "b", "c"], "again")
        let again = pipeline.request(ImageRequest(location: http.url(path("a", "again")), variant: .named("gray")))
        #expect(await eventually { pipeline.activity.queuedDownloadKeys.first == http.url(path("a", "again")) })
        #expect(pipeline.activity.queuedDownloads == 3, "the duplicate shares A's download")
        try await finish([first] + queued + [again], blocker: blocker)
        let order = http.requestOrder(among: [blocker] + ["a", "b", "c"].map { path($0, "again") })
        #expect(order == [blocker, path("a", "again"), path("c", "again"), path("b", "again")])
        #expect(http.server.hits(path("a", "again")) == 1)
    }

    @Test("FIFO: a new request for queued A keeps A where it was")
    func fifoDuplicateKeepsPlace() async throws {
        let pipeline = pipeline(.fifo)
        let (first, blocker) = await occupySlot(pipeline, "fifo-again")
        let queued = await enqueue(pipeline, ["a", "b"], "fifo-again")
        let again = pipeline.request(ImageRequest(location: http.url(path("b", "fifo-again")), variant: .named("circle")))
        #expect(await eventually { pipeline.activity.attachedRenders == 4 }, "blocker, a, b and the second request for b")
        #expect(pipeline.activity.queuedDownloadKeys == [http.url(path("a", "fifo-again")), http.url(path("b", "fifo-again"))])
        try await finish([first] + queued + [again], blocker: blocker)
        let order = http.requestOrder(among: [blocker, path("a", "fifo-again"), path("b", "fifo-again")])
        #expect(order == [blocker, path("a", "fifo-again"), path("b", "fifo-again")])
    }
}
