import CoreMetrics
@testable import Darkroom
import MetricsTestKit
import Testing

// MARK: - The decode memory budget

@Suite("Decodes share a memory budget: they wait for room, in order, and an oversized one runs alone")
struct WorkQueueBudgetTests {
    let lock = PipelineLock()

    func queue(budget: Int = 100, slots: Int = 8) -> WorkQueue {
        WorkQueue(
            name: "processing", maximumActive: slots, memoryBudget: budget, order: .fifo,
            depthGauge: Gauge(label: "depth", factory: TestMetrics()))
    }

    func enqueue(_ queue: WorkQueue, cost: Int, priority: ImagePriority = .normal) -> WorkItem {
        let node = JobNode(stage: cost > 0 ? .decode : .encode, key: "job", priority: priority)
        return lock.run { effects in queue.enqueue(node, cost: cost, &effects) }
    }

    func granted(_ items: [WorkItem]) -> [Bool] {
        lock.run { _ in items.map(\.isActive) }
    }

    @Test("a decode waits while the budget is full; work without a cost and smaller decodes do not jump it")
    func waitsForRoom() {
        let queue = queue()
        let first = enqueue(queue, cost: 60)
        let second = enqueue(queue, cost: 60)
        let encode = enqueue(queue, cost: 0)
        let small = enqueue(queue, cost: 30)
        #expect(granted([first, second, encode, small]) == [true, false, true, false])
        lock.run { effects in queue.release(first, &effects) }
        #expect(granted([second, small]) == [true, true])
        #expect(lock.run { _ in queue.activeCost } == 90)
    }

    @Test("a decode bigger than the whole budget runs alone, once nothing else holds memory")
    func oversized() {
        let queue = queue()
        let running = enqueue(queue, cost: 10)
        let huge = enqueue(queue, cost: 500)
        #expect(granted([running, huge]) == [true, false])
        lock.run { effects in queue.release(running, &effects) }
        #expect(granted([huge]) == [true])
        let next = enqueue(queue, cost: 10)
        #expect(granted([next]) == [false])
    }

    @Test("the slot limit holds whatever the costs, and removed items never start")
    func slots() {
        let queue = queue(budget: 1_000, slots: 1)
        let first = enqueue(queue, cost: 0)
        let low = enqueue(queue, cost: 0, priority: .low)
        let high = enqueue(queue, cost: 0, priority: .high)
        lock.run { effects in queue.remove(high, &effects) }
        lock.run { effects in queue.release(first, &effects) }
        #expect(granted([low, high]) == [true, false])
        #expect(lock.run { _ in high.grant.isResolved })
    }

    @Test("a decode whose pixels live on keeps its cost counted after its slot is freed, until its cost is released")
    func costOutlivesSlot() {
        let queue = queue(slots: 1)
        let decode = enqueue(queue, cost: 60)
        let next = enqueue(queue, cost: 60)
        let encode = enqueue(queue, cost: 0)
        lock.run { effects in queue.releaseSlotKeepingCost(decode, &effects) }
        // The slot went to the encode; the second decode still waits for memory.
        #expect(granted([next, encode]) == [false, true])
        #expect(lock.run { _ in queue.activeCost } == 60)
        lock.run { effects in queue.release(encode, &effects) }
        #expect(granted([next]) == [false])
        lock.run { effects in queue.releaseCost(decode, &effects) }
        #expect(granted([next]) == [true])
    }

    @Test("a decode that waited too long leaves the queue with the error it is given, and the smaller one behind it starts")
    func expires() async {
        let queue = queue()
        let running = enqueue(queue, cost: 60)
        let big = enqueue(queue, cost: 60)
        let small = enqueue(queue, cost: 30)
        #expect(granted([running, big, small]) == [true, false, false])
        let busy = ImagePipelineBusy(waited: 2, budget: 100)
        lock.run { effects in queue.expire(big, with: busy, &effects) }
        #expect(granted([small]) == [true])
        #expect(lock.run { _ in queue.pendingCount } == 0)
        await #expect(throws: busy) { try await big.grant.wait(lock: lock) { _ in } }
        // A granted item is not taken back.
        lock.run { effects in queue.expire(running, with: busy, &effects) }
        #expect(granted([running]) == [true])
    }
}
