// MARK: - Inserting with the auto-purging policy

/// What one ``CostLRUStore/insertPurging(_:cost:forKey:group:capacity:target:)`` did.
struct PurgingInsertion<Value> {
    /// Values that left the store (replaced, evicted or refused); release them outside any lock.
    var leaving: [Value] = []
    var evictions = 0
    var rejected = false
}

extension CostLRUStore {
    /// AlamofireImage's policy: a value costlier than `capacity` is refused (and any old value
    /// under its key removed, so it is never served stale); otherwise it is stored, and when the
    /// total passes `capacity`, least-recently-used values are evicted until the total is at most
    /// `target` — never the value just stored.
    mutating func insertPurging(
        _ value: Value, cost: Int, forKey key: Key, group: Group?, capacity: Int, target: Int
    ) -> PurgingInsertion<Value> {
        var result = PurgingInsertion<Value>()
        guard cost <= capacity else {
            result.rejected = true
            if let old = removeValue(forKey: key) { result.leaving.append(old) }
            return result
        }
        if let replaced = insert(value, cost: cost, forKey: key, group: group) {
            result.leaving.append(replaced)
        }
        guard totalCost > capacity else { return result }
        while totalCost > target, count > 1, let evicted = removeLeastRecentlyUsed() {
            result.leaving.append(evicted.value)
            result.evictions += 1
        }
        return result
    }
}
