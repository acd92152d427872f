@testable import DarkroomCache
import DarkroomTestSupport
import Testing

// MARK: - CostLRUStore

@Suite("The cost LRU store keeps recency order, total cost and groups in O(1) per operation")
struct MemoryCostLRUStoreTests {
    typealias Store = CostLRUStore<String, String, Int>

    @Test("inserts go to the front, reads move an entry to the front, removal takes the tail")
    func recencyOrder() throws {
        var store = Store()
        for key in ["a", "b", "c", "d"] { store.insert(0, cost: 1, forKey: key, group: nil) }
        #expect(store.keysByRecency == ["d", "c", "b", "a"])
        #expect(store.value(forKey: "b") == 0)
        #expect(store.keysByRecency == ["b", "d", "c", "a"])
        #expect(store.value(forKey: "a") == 0)  // the tail moves to the front
        #expect(store.keysByRecency == ["a", "b", "d", "c"])
        #expect(store.peekValue(forKey: "c") == 0)  // a peek does not
        #expect(store.keysByRecency == ["a", "b", "d", "c"])
        #expect(store.removeLeastRecentlyUsed()?.key == "c")
        #expect(store.removeLeastRecentlyUsed()?.key == "d")
        #expect(store.keysByRecency == ["a", "b"])
        try store.validateInvariants()
    }

    @Test("the total cost follows inserts, replacements and removals")
    func totalCost() throws {
        var store = Store()
        store.insert(1, cost: 10, forKey: "a", group: nil)
        store.insert(2, cost: 20, forKey: "b", group: nil)
        #expect(store.totalCost == 30)
        #expect(store.insert(3, cost: 5, forKey: "a", group: nil) == 1)
        #expect(store.totalCost == 25)
        #expect(store.count == 2)
        #expect(store.removeValue(forKey: "b") == 2)
        #expect(store.removeValue(forKey: "b") == nil)
        #expect(store.totalCost == 5)
        try store.validateInvariants()
    }

    @Test("freed slots are reused, so the slot arrays do not grow under churn")
    func freeListReuse() throws {
        var store = Store()
        for i in 0..<100 { store.insert(i, cost: 1, forKey: "k\(i)", group: "g\(i % 3)") }
        for round in 0..<50 {
            for i in 0..<100 {
                _ = store.removeLeastRecentlyUsed()
                store.insert(i, cost: 1, forKey: "r\(round)-\(i)", group: "g\(i % 3)")
            }
        }
        #expect(store.entries.count == 100)
        #expect(store.count == 100)
        try store.validateInvariants()
    }

    @Test("a group lists exactly its entries and is removed whole, whichever member was its head")
    func groups() throws {
        var store = Store()
        store.insert(1, cost: 1, forKey: "a1", group: "a")
        store.insert(2, cost: 1, forKey: "b1", group: "b")
        store.insert(3, cost: 1, forKey: "a2", group: "a")
        store.insert(4, cost: 1, forKey: "a3", group: "a")
        store.insert(5, cost: 1, forKey: "none", group: nil)
        #expect(store.keys(inGroup: "a") == ["a3", "a2", "a1"])
        store.removeValue(forKey: "a3")  // the group's head
        store.removeValue(forKey: "a1")  // its tail
        #expect(store.keys(inGroup: "a") == ["a2"])
        store.insert(6, cost: 1, forKey: "a2", group: "b")  // moves to another group
        #expect(store.keys(inGroup: "a").isEmpty)
        #expect(store.groupCount == 1)
        #expect(Set(store.keys(inGroup: "b")) == ["a2", "b1"])
        try store.validateInvariants()
        #expect(store.removeGroup("b").map(\.key).sorted() == ["a2", "b1"])
        #expect(store.keysByRecency == ["none"])
        #expect(store.groupCount == 0)
        try store.validateInvariants()
    }

    @Test("random operations keep every invariant and match a naive list")
    func randomOperations() throws {
        var store = Store()
        var naive: [(key: String, cost: Int)] = []  // most recent first
        var random = SeededGenerator(seed: 7)
        for step in 0..<4000 {
            let key = "k\(Int.random(in: 0..<40, using: &random))"
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let cost = Int.random(in: 0..<100, using: &random)
                store.insert(step, cost: cost, forKey: key, group: "g\(cost % 5)")
                naive.removeAll { $0.key == key }
                naive.insert((key, cost), at: 0)
            case 4..<7:
                let found = store.value(forKey: key) != nil
                if let i = naive.firstIndex(where: { $0.key == key }) {
                    naive.insert(naive.remove(at: i), at: 0)
                    #expect(found)
                } else {
                    #expect(!found)
                }
            case 7:
                store.removeValue(forKey: key)
                naive.removeAll { $0.key == key }
            case 8:
                #expect(store.removeLeastRecentlyUsed()?.key == naive.popLast()?.key)
            default:
                let group = "g\(Int.random(in: 0..<5, using: &random))"
                let removed = Set(store.removeGroup(group).map(\.key))
                let expected = Set(naive.filter { $0.cost % 5 == Int(group.dropFirst())! }.map(\.key))
                #expect(removed == expected)
                naive.removeAll { removed.contains($0.key) }
            }
            #expect(store.keysByRecency == naive.map(\.key))
            #expect(store.totalCost == naive.reduce(0) { $0 + $1.cost })
            if step % 50 == 0 { try store.validateInvariants() }
        }
        try store.validateInvariants()
    }

    @Test("removeAll empties the store and its groups")
    func removeAll() throws {
        var store = Store()
        for i in 0..<10 { store.insert(i, cost: i, forKey: "\(i)", group: "g") }
        store.removeAll()
        #expect(store.isEmpty && store.totalCost == 0 && store.groupCount == 0 && store.entries.isEmpty)
        try store.validateInvariants()
    }
}
