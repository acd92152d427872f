import Metrics

// MARK: - WorkItem

/// One job's wait for a slot of a ``WorkQueue``. Guarded by the pipeline lock.
final class WorkItem: @unchecked Sendable {
    unowned let queue: WorkQueue
    let node: JobNode
    /// Bytes of decoded pixels the work will hold (0 for work outside the memory budget).
    let cost: Int
    /// Its place within a priority: in FIFO order its job's ``JobNode/origin`` (earlier work
    /// first); in LIFO order when it arrived, renewed when new demand arrives.
    var sequence: Int
    /// When it arrived: breaks ties between items of the same origin.
    let arrival: Int
    /// Resolved when the slot is granted, or with `CancellationError` when the job leaves the queue.
    let grant = Suspension<Void>()
    /// Granted and not yet released.
    var isActive = false

    init(queue: WorkQueue, node: JobNode, cost: Int, sequence: Int, arrival: Int) {
        self.queue = queue
        self.node = node
        self.cost = cost
        self.sequence = sequence
        self.arrival = arrival
    }
}

// MARK: - WorkQueue

/// A limited number of slots (downloads, or processing) handed out in priority order, FIFO or
/// LIFO within a priority. FIFO goes by when the work began (the source session's number), not
/// when each stage arrived: a render that has decoded gets its filters and encode before a
/// later source is decoded, so it finishes sooner and its pixels are freed sooner. The
/// priority of a waiting item is its job's priority *when the queue picks*, so raising a job's
/// priority re-sorts it at once.
///
/// Items with a cost (decodes) also share a memory budget: one starts only while the costs
/// counted stay within it — or when none is, so a decode bigger than the whole budget runs
/// alone. A decode's cost stays counted after its slot is freed, until the renders of its
/// source end (``releaseSlotKeepingCost(_:_:)``). A decode that does not fit keeps later
/// decodes waiting (it is never starved), while work without a cost goes past it.
///
/// Guarded by the pipeline lock.
final class WorkQueue: @unchecked Sendable {
    let name: String
    let maximumActive: Int
    let memoryBudget: Int?
    let order: ImagePipeline.QueueOrder
    private let depthGauge: Gauge

    private var pending: [WorkItem] = []
    private var nextSequence = 0
    private(set) var activeCount = 0
    private(set) var activeCost = 0

    init(name: String, maximumActive: Int, memoryBudget: Int?, order: ImagePipeline.QueueOrder, depthGauge: Gauge) {
        self.name = name
        self.maximumActive = max(1, maximumActive)
        self.memoryBudget = memoryBudget
        self.order = order
        self.depthGauge = depthGauge
    }

    /// Items waiting for a slot.
    var pendingCount: Int { pending.count }

    /// The jobs waiting, in the order they would start now.
    var pendingKeys: [String] { ranked().map { pending[$0].node.key } }

    // MARK: - Enqueueing and leaving

    func enqueue(_ node: JobNode, cost: Int, _ effects: inout PipelineEffects) -> WorkItem {
        let item = WorkItem(
            queue: self, node: node, cost: cost, sequence: order == .fifo ? node.origin : nextSequence, arrival: nextSequence)
        nextSequence += 1
        guard !node.isAbandoned else {
            item.grant.resolve(.failure(CancellationError()), &effects)
            return item
        }
        pending.append(item)
        node.queueItem = item
        schedule(&effects)
        return item
    }

    /// Takes a waiting item out of the queue (its job was abandoned or cancelled): it never runs.
    func remove(_ item: WorkItem, _ effects: inout PipelineEffects) {
        guard let index = pending.firstIndex(where: { $0 === item }) else { return }
        pending.remove(at: index)
        if item.node.queueItem === item { item.node.queueItem = nil }
        item.grant.resolve(.failure(CancellationError()), &effects)
        depthGauge.record(pending.count)
    }

    /// Takes a still-waiting item out of the queue with `error` (it waited too long): it never
    /// runs. An item already granted or gone is left alone.
    func expire(_ item: WorkItem, with error: any Error, _ effects: inout PipelineEffects) {
        guard let index = pending.firstIndex(where: { $0 === item }) else { return }
        pending.remove(at: index)
        if item.node.queueItem === item { item.node.queueItem = nil }
        item.grant.resolve(.failure(error), &effects)
        depthGauge.record(pending.count)
        // A decode that did not fit may have held back smaller ones behind it.
        schedule(&effects)
    }

    /// New demand for a waiting item (another request joined its job): in LIFO order it moves
    /// to the front of its priority, as the newest work does — what a scrolling client wants
    /// when a cell asks again for an image already queued. FIFO keeps its place.
    func renew(_ item: WorkItem) {
        guard order == .lifo, !item.isActive, pending.contains(where: { $0 === item }) else { return }
        item.sequence = nextSequence
        nextSequence += 1
    }

    /// Frees the slot of a granted item and starts whatever can start now.
    func release(_ item: WorkItem, _ effects: inout PipelineEffects) {
        guard item.isActive else { return }
        activeCost -= item.cost
        releaseSlotKeepingCost(item, &effects)
    }

    /// Frees the slot of a granted item but keeps its cost counted against the memory budget
    /// until ``releaseCost(_:_:)``: a decode's pixels outlive the decode (filters and the
    /// encode read them), so the budget counts them until the render that holds them ends.
    func releaseSlotKeepingCost(_ item: WorkItem, _ effects: inout PipelineEffects) {
        guard item.isActive else { return }
        item.isActive = false
        activeCount -= 1
        schedule(&effects)
    }

    /// Stops counting the cost of an item released with ``releaseSlotKeepingCost(_:_:)``.
    func releaseCost(_ item: WorkItem, _ effects: inout PipelineEffects) {
        activeCost -= item.cost
        schedule(&effects)
    }

    // MARK: - Picking

    private func schedule(_ effects: inout PipelineEffects) {
        while activeCount < maximumActive, let index = nextIndex() {
            let item = pending.remove(at: index)
            item.isActive = true
            activeCount += 1
            activeCost += item.cost
            if item.node.queueItem === item { item.node.queueItem = nil }
            item.grant.resolve(.success(()), &effects)
        }
        depthGauge.record(pending.count)
    }

    private func nextIndex() -> Int? {
        var decodeWaits = false
        for index in ranked() {
            let item = pending[index]
            if item.cost == 0 { return index }
            if decodeWaits { continue }
            if activeCost == 0 || memoryBudget.map({ activeCost + item.cost <= $0 }) ?? true { return index }
            decodeWaits = true
        }
        return nil
    }

    /// Indices of `pending`, best first: higher priority, then earlier work (FIFO) or newer
    /// (LIFO), then arrival.
    private func ranked() -> [Int] {
        let lifo = order == .lifo
        return pending.indices.sorted { a, b in
            let left = pending[a], right = pending[b]
            if left.node.priority != right.node.priority { return left.node.priority > right.node.priority }
            if left.sequence != right.sequence { return lifo ? left.sequence > right.sequence : left.sequence < right.sequence }
            return left.arrival < right.arrival
        }
    }
}
