// MARK: - Invariants

/// A broken internal invariant of a memory cache: a bug, reported by tests.
struct CacheInvariantViolation: Error, CustomStringConvertible {
    var description: String
}

extension CostLRUStore {
    /// Checks every structural invariant in O(n): the recency list is a well-linked chain
    /// through exactly the used slots, `indices` points at the slot holding each key,
    /// the total cost is the sum of the entries' costs, the free list holds exactly the
    /// empty slots, and each group list links exactly that group's entries.
    func validateInvariants() throws(CacheInvariantViolation) {
        func fail(_ message: String) -> CacheInvariantViolation { CacheInvariantViolation(description: message) }
        func inBounds(_ slot: Int32) -> Bool { slot >= 0 && Int(slot) < entries.count }
        guard links.count == entries.count else { throw fail("\(links.count) links for \(entries.count) slots") }

        // Recency list, walked from the head.
        var seen = 0
        var cost = 0
        var previous = Self.none
        var slot = head
        while slot != Self.none {
            guard inBounds(slot) else { throw fail("recency link \(slot) out of bounds") }
            seen += 1
            guard seen <= count else { throw fail("recency list longer than \(count) entries (a cycle?)") }
            let entry = entries[Int(slot)]
            guard let key = entry.key, entry.value != nil else { throw fail("empty slot \(slot) on the recency list") }
            let link = links[Int(slot)]
            guard link.previous == previous else { throw fail("slot \(slot) has previous \(link.previous), not \(previous)") }
            guard indices[key] == slot else { throw fail("key of slot \(slot) maps to \(String(describing: indices[key]))") }
            guard entry.cost >= 0 else { throw fail("slot \(slot) has a negative cost") }
            cost += entry.cost
            previous = slot
            slot = link.next
        }
        guard seen == count else { throw fail("recency list has \(seen) entries, the index \(count)") }
        guard tail == previous else { throw fail("tail is \(tail), the list ends at \(previous)") }
        guard cost == totalCost else { throw fail("total cost \(totalCost), entries sum to \(cost)") }

        // Free list.
        var free = 0
        slot = freeHead
        while slot != Self.none {
            guard inBounds(slot) else { throw fail("free link \(slot) out of bounds") }
            free += 1
            guard free <= entries.count - count else { throw fail("free list too long (a cycle?)") }
            let entry = entries[Int(slot)]
            guard entry.key == nil, entry.value == nil, entry.group == nil else {
                throw fail("free slot \(slot) still holds an entry")
            }
            slot = links[Int(slot)].next
        }
        guard free + count == entries.count else { throw fail("\(free) free + \(count) used ≠ \(entries.count) slots") }

        // Group lists.
        var grouped = 0
        for (group, chain) in groups {
            guard chain.count > 0 else { throw fail("empty group kept") }
            var length = 0
            var before = Self.none
            slot = chain.head
            while slot != Self.none {
                guard inBounds(slot) else { throw fail("group link \(slot) out of bounds") }
                length += 1
                guard length <= chain.count else { throw fail("group list longer than its count") }
                let entry = entries[Int(slot)]
                guard entry.group == group else { throw fail("slot \(slot) is on another group's list") }
                guard entry.groupPrevious == before else { throw fail("slot \(slot) has a wrong group back link") }
                before = slot
                slot = entry.groupNext
            }
            guard length == chain.count else { throw fail("group list has \(length) entries, count \(chain.count)") }
            grouped += length
        }
        let entriesWithGroup = entries.lazy.filter { $0.group != nil }.count
        guard grouped == entriesWithGroup else { throw fail("\(entriesWithGroup) grouped entries, \(grouped) on group lists") }
    }
}
