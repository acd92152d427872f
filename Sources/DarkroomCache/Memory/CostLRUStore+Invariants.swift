// MARK: - Invariants

/// A broken internal invariant of a memory cache: a bug, reported by tests.
struct CacheInvariantViolation: Error, CustomStringConvertible {
    var description: String
}

extension CostLRUStore {
    /// Checks every structural invariant in O(n): the recency list is a well-linked chain
    /// through exactly the stored nodes, `indices` points at the node holding each key,
    /// the total cost is the sum of the nodes' costs, the free list holds exactly the
    /// empty nodes, and each group list links exactly that group's entries.
    func validateInvariants() throws(CacheInvariantViolation) {
        func fail(_ message: String) -> CacheInvariantViolation { CacheInvariantViolation(description: message) }

        // Recency list, walked from the head.
        var seen = 0
        var cost = 0
        var previous = Self.none
        var index = head
        while index != Self.none {
            guard index >= 0, index < nodes.count else { throw fail("recency link \(index) out of bounds") }
            seen += 1
            guard seen <= count else { throw fail("recency list longer than \(count) entries (a cycle?)") }
            let node = nodes[index]
            guard let key = node.key, node.value != nil else { throw fail("empty node \(index) on the recency list") }
            guard node.previous == previous else { throw fail("node \(index) has previous \(node.previous), not \(previous)") }
            guard indices[key] == index else { throw fail("key of node \(index) maps to \(String(describing: indices[key]))") }
            guard node.cost >= 0 else { throw fail("node \(index) has negative cost") }
            cost += node.cost
            previous = index
            index = node.next
        }
        guard seen == count else { throw fail("recency list has \(seen) entries, the index \(count)") }
        guard tail == previous else { throw fail("tail is \(tail), the list ends at \(previous)") }
        guard cost == totalCost else { throw fail("total cost \(totalCost), nodes sum to \(cost)") }

        // Free list.
        var free = 0
        index = freeHead
        while index != Self.none {
            guard index >= 0, index < nodes.count else { throw fail("free link \(index) out of bounds") }
            free += 1
            guard free <= nodes.count - count else { throw fail("free list too long (a cycle?)") }
            guard nodes[index].key == nil, nodes[index].value == nil, nodes[index].group == nil else {
                throw fail("free node \(index) still holds an entry")
            }
            index = nodes[index].next
        }
        guard free + count == nodes.count else { throw fail("\(free) free + \(count) used ≠ \(nodes.count) nodes") }

        // Group lists.
        var grouped = 0
        for (group, chain) in groups {
            guard chain.count > 0 else { throw fail("empty group kept") }
            var length = 0
            var before = Self.none
            index = chain.head
            while index != Self.none {
                guard index >= 0, index < nodes.count else { throw fail("group link \(index) out of bounds") }
                length += 1
                guard length <= chain.count else { throw fail("group list longer than its count") }
                guard nodes[index].group == group else { throw fail("node \(index) is on another group's list") }
                guard nodes[index].groupPrevious == before else { throw fail("node \(index) has a wrong group back link") }
                before = index
                index = nodes[index].groupNext
            }
            guard length == chain.count else { throw fail("group list has \(length) entries, count \(chain.count)") }
            grouped += length
        }
        let nodesWithGroup = nodes.lazy.filter { $0.group != nil }.count
        guard grouped == nodesWithGroup else { throw fail("\(nodesWithGroup) grouped nodes, \(grouped) on group lists") }
    }
}
