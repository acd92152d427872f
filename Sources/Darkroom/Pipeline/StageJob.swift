// MARK: - PipelineStage

/// The kinds of work a pipeline does; also the `stage` dimension of its metrics.
enum PipelineStage: String, Sendable {
    /// A request's own job: caches, then the stages below, then storing the result.
    case render
    /// Loading a source's bytes (and probing their header).
    case fetch
    case decode
    /// One chain prefix: the filter that extends the prefix before it.
    case filter
    case encode
}

// MARK: - JobNode

/// What every stage job shares: a priority (the highest of its waiters'), the upstream job it
/// is waiting on now, the queue slot it is waiting for, and the Swift task that drives it.
///
/// All mutable state is guarded by the pipeline's ``PipelineLock``; every method is called
/// under it (hence `@unchecked Sendable`).
class JobNode: @unchecked Sendable {
    let stage: PipelineStage
    let key: String
    /// The highest priority among the waiters (kept while it has none).
    var priority: ImagePriority
    /// When the work it belongs to began (its source session's number, in the order sessions
    /// started): a FIFO queue serves earlier sessions' stages first, so a render that has
    /// decoded is encoded before the next source is decoded.
    var origin = 0
    /// The job this one waits on now, and its waiter id there.
    var upstream: (node: JobNode, waiterID: Int)?
    /// The queue slot this job waits for, while queued.
    var queueItem: WorkItem?
    /// The task running the job's work.
    var driver: Task<Void, Never>?
    /// Gives back the queue slot the finished work held: run by ``StageJob/finish(_:_:)`` after
    /// the waiters are handed the result, so a downstream stage of the same source that
    /// queued for a slot on delivery gets this one before any later source's work.
    var releaseHeldSlot: ((inout PipelineEffects) -> Void)?
    private(set) var isFinished = false
    private(set) var isAbandoned = false
    /// Forgets the job in the table that finds it (its session or the pipeline), so that the
    /// next request starts it afresh; runs when the job finishes or is abandoned.
    var onLeave: ((inout PipelineEffects) -> Void)?

    init(stage: PipelineStage, key: String, priority: ImagePriority) {
        self.stage = stage
        self.key = key
        self.priority = priority
    }

    // MARK: - Waiters (overridden by StageJob)

    func waiterPriorities() -> [ImagePriority] { [] }
    func removeWaiter(_ id: Int, _ effects: inout PipelineEffects) {}
    func setWaiterPriority(_ id: Int, _ priority: ImagePriority, _ effects: inout PipelineEffects) {}

    // MARK: - Priority

    /// Recomputes the priority from the waiters and passes a change upstream. A queued slot
    /// reads the priority when the queue next picks, so the change re-sorts it.
    func refreshPriority(_ effects: inout PipelineEffects) {
        guard let highest = waiterPriorities().max(), highest != priority else { return }
        priority = highest
        if let upstream { upstream.node.setWaiterPriority(upstream.waiterID, highest, &effects) }
    }

    /// A new waiter joined: the job's queued slot, and the slots of the jobs it waits on, are
    /// renewed (LIFO queues move them to the front of their priority).
    func renewDemand() {
        if let item = queueItem { item.queue.renew(item) }
        upstream?.node.renewDemand()
    }

    // MARK: - Ending

    /// Nobody wants the result any more: leave the table, give up the queue slot, stop waiting
    /// upstream (which abandons the upstream job when it was its last waiter) and cancel the
    /// driving task, so a source sees Task cancellation.
    func abandon(_ effects: inout PipelineEffects) {
        guard !isFinished, !isAbandoned else { return }
        isAbandoned = true
        leave(&effects)
        if let item = queueItem { item.queue.remove(item, &effects) }
        if let upstream {
            self.upstream = nil
            upstream.node.removeWaiter(upstream.waiterID, &effects)
        }
        if let driver { effects.later { driver.cancel() } }
        driver = nil
    }

    func markFinished(_ effects: inout PipelineEffects) {
        isFinished = true
        upstream = nil
        queueItem = nil
        driver = nil
    }

    func leave(_ effects: inout PipelineEffects) {
        onLeave?(&effects)
        onLeave = nil
    }
}

// MARK: - StageJob

/// A job producing one value for any number of waiters: requests, or downstream jobs (a
/// prefix waits on the shorter prefix, an encode on its chain). Waiters joining after the job
/// finished get the kept result at once.
final class StageJob<Value: Sendable>: JobNode, @unchecked Sendable {  // guarded by the pipeline lock
    typealias Delivery = (Result<Value, any Error>, inout PipelineEffects) -> Void

    private struct Waiter {
        var priority: ImagePriority
        let deliver: Delivery
    }

    private var waiters: [Int: Waiter] = [:]
    private var nextWaiterID = 0
    private(set) var result: Result<Value, any Error>?

    /// The number of waiters now.
    var waiterCount: Int { waiters.count }

    /// Adds a waiter and returns its id, or delivers the kept result at once and returns `nil`.
    func addWaiter(priority: ImagePriority, _ effects: inout PipelineEffects, deliver: @escaping Delivery) -> Int? {
        if let result {
            deliver(result, &effects)
            return nil
        }
        let id = nextWaiterID
        nextWaiterID += 1
        waiters[id] = Waiter(priority: priority, deliver: deliver)
        refreshPriority(&effects)
        if id > 0 { renewDemand() }
        return id
    }

    override func waiterPriorities() -> [ImagePriority] { waiters.values.map(\.priority) }

    override func removeWaiter(_ id: Int, _ effects: inout PipelineEffects) {
        guard waiters.removeValue(forKey: id) != nil else { return }
        if waiters.isEmpty { abandon(&effects) } else { refreshPriority(&effects) }
    }

    override func setWaiterPriority(_ id: Int, _ priority: ImagePriority, _ effects: inout PipelineEffects) {
        guard waiters[id] != nil else { return }
        waiters[id]!.priority = priority
        refreshPriority(&effects)
    }

    /// Keeps the result and hands it to every waiter, in the order they joined.
    func finish(_ result: Result<Value, any Error>, _ effects: inout PipelineEffects) {
        guard !isFinished else { return }
        markFinished(&effects)
        self.result = result
        let waiting = waiters.sorted { $0.key < $1.key }
        waiters = [:]
        for (_, waiter) in waiting { waiter.deliver(result, &effects) }
        if let release = releaseHeldSlot {
            releaseHeldSlot = nil
            release(&effects)
        }
        leave(&effects)
    }

    /// Starts the driving task: it runs `work` and finishes the job with its result.
    func start(
        lock: PipelineLock, on executor: any TaskExecutor, _ work: @escaping @Sendable (StageJob<Value>) async throws -> Value
    ) {
        driver = Task(executorPreference: executor) { [self] in
            let result: Result<Value, any Error>
            do {
                result = .success(try await work(self))
            } catch {
                result = .failure(error)
            }
            lock.run { effects in self.finish(result, &effects) }
        }
    }
}

// MARK: - Waiting upstream

extension JobNode {
    /// Waits, as this job, for `upstream`'s value: this job joins its waiters with its own
    /// priority (and passes later changes on); cancelling the waiting task withdraws it.
    func value<Upstream: Sendable>(of upstream: StageJob<Upstream>, lock: PipelineLock) async throws -> Upstream {
        try await value(of: { _ in upstream }, lock: lock)
    }

    /// Runs `body` holding a slot of `queue` (waiting for one in priority order first); `cost`
    /// counts against the queue's memory budget while the body runs. When `body` succeeds the
    /// slot is given back as the job finishes, after its waiters have the result.
    func withSlot<T>(of queue: WorkQueue, cost: Int = 0, lock: PipelineLock, _ body: () async throws -> T) async throws -> T {
        let item = lock.run { effects in queue.enqueue(self, cost: cost, &effects) }
        return try await withSlot(item, of: queue, lock: lock, body)
    }

    /// Runs `body` once `item` (this job's place in `queue`) is granted; the slot is given back
    /// as the job finishes, or at once when `body` throws.
    func withSlot<T>(_ item: WorkItem, of queue: WorkQueue, lock: PipelineLock, _ body: () async throws -> T) async throws -> T {
        try await item.grant.wait(lock: lock) { effects in queue.remove(item, &effects) }
        do {
            let value = try await body()
            lock.run { _ in releaseHeldSlot = { effects in queue.release(item, &effects) } }
            return value
        } catch {
            lock.run { effects in queue.release(item, &effects) }
            throw error
        }
    }

    /// Like ``withSlot(_:of:lock:_:)``, but when `body` succeeds the slot's cost stays counted
    /// against the queue's memory budget until `session` ends (its decoded pixels live on).
    /// A wait longer than `timeout` seconds ends with ``ImagePipelineBusy``.
    func withSlot<T>(
        _ item: WorkItem, of queue: WorkQueue, keepingCostFor session: SourceSession, timeout: Double?, lock: PipelineLock,
        _ body: () async throws -> T
    ) async throws -> T {
        let timer = timeout.flatMap { seconds in
            lock.run { _ in item.grant.isResolved } ? nil : Task {
                try await Task.sleep(for: .seconds(seconds))
                let busy = ImagePipelineBusy(waited: seconds, budget: queue.memoryBudget)
                lock.run { effects in queue.expire(item, with: busy, &effects) }
            }
        }
        defer { timer?.cancel() }
        try await item.grant.wait(lock: lock) { effects in queue.remove(item, &effects) }
        do {
            let value = try await body()
            lock.run { _ in
                releaseHeldSlot = { effects in
                    if session.renders > 0 {
                        queue.releaseSlotKeepingCost(item, &effects)
                        session.heldCosts.append(item)
                    } else {
                        queue.release(item, &effects)  // the session ended while this ran
                    }
                }
            }
            return value
        } catch {
            lock.run { effects in queue.release(item, &effects) }
            throw error
        }
    }
}
