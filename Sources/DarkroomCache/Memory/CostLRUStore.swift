// MARK: - CostLRUStore

/// An O(1) least-recently-used store that tracks the total cost of its values, with an
/// optional group per entry (Darkroom's groups are sources) so a whole group can be removed
/// without scanning.
///
/// Layout: a dictionary from key to node index, and the nodes in one contiguous array.
/// Nodes are threaded on two intrusive doubly linked lists by index — the recency list
/// (head = most recently used) and, for grouped entries, their group's list — and freed
/// nodes go on a free list for reuse. Linking, unlinking and moving a node touch only
/// integers in the array: no per-entry object, no reference counting on the hot path.
///
/// Not thread-safe: it is a value type meant to live inside a lock
/// (see ``AutoPurgingImageCache``).
///
/// ```swift
/// var store = CostLRUStore<String, String, Image>()
/// store.insert(image, cost: image.byteCount, forKey: "k", group: "/cat.jpg")
/// store.value(forKey: "k")            // the image; "k" is now the most recent
/// store.removeLeastRecentlyUsed()     // evicts from the cold end
/// ```
struct CostLRUStore<Key: Hashable, Group: Hashable, Value> {
    /// "No node": the end of a list.
    static var none: Int { -1 }

    struct Node {
        var key: Key?
        var value: Value?
        var group: Group?
        var cost: Int
        /// Recency list neighbours (towards the head / towards the tail); `next` also
        /// chains the free list.
        var previous: Int
        var next: Int
        /// Group list neighbours.
        var groupPrevious: Int
        var groupNext: Int
    }

    /// The first node and the length of one group's list.
    struct GroupChain {
        var head: Int
        var count: Int
    }

    /// One entry taken out of the store.
    struct Removed {
        var key: Key
        var value: Value
        var cost: Int
    }

    private(set) var nodes: [Node] = []
    private(set) var indices: [Key: Int]
    private(set) var groups: [Group: GroupChain] = [:]
    /// Most recently used node.
    private(set) var head = CostLRUStore.none
    /// Least recently used node.
    private(set) var tail = CostLRUStore.none
    /// First free node (chained through `next`).
    private(set) var freeHead = CostLRUStore.none
    /// Sum of the costs of the stored values.
    private(set) var totalCost = 0

    init(minimumCapacity: Int = 0) {
        indices = Dictionary(minimumCapacity: minimumCapacity)
        nodes.reserveCapacity(minimumCapacity)
    }

    var count: Int { indices.count }
    var isEmpty: Bool { indices.isEmpty }

    // MARK: - Reading

    /// The value for `key`, made the most recently used.
    mutating func value(forKey key: Key) -> Value? {
        guard let index = indices[key] else { return nil }
        moveToFront(index)
        return nodes[index].value
    }

    /// The value for `key` without changing the recency order.
    func peekValue(forKey key: Key) -> Value? {
        guard let index = indices[key] else { return nil }
        return nodes[index].value
    }

    func contains(_ key: Key) -> Bool { indices[key] != nil }

    /// The cost of the least recently used entry, if any.
    var leastRecentlyUsedCost: Int? { tail == Self.none ? nil : nodes[tail].cost }

    // MARK: - Writing

    /// Stores `value` as the most recently used entry, in `group` if given, replacing any
    /// previous value for `key` (whose cost and group are replaced too).
    /// - Returns: the replaced value.
    @discardableResult
    mutating func insert(_ value: Value, cost: Int, forKey key: Key, group: Group?) -> Value? {
        precondition(cost >= 0, "costs are never negative")
        if let index = indices[key] {
            let old = nodes[index].value.take()
            totalCost += cost - nodes[index].cost
            nodes[index].value = value
            nodes[index].cost = cost
            if nodes[index].group != group {
                unlinkFromGroup(index)
                linkIntoGroup(index, group)
            }
            moveToFront(index)
            return old
        }
        let index = allocateNode(key: key, value: value, cost: cost)
        indices[key] = index
        totalCost += cost
        linkAtFront(index)
        linkIntoGroup(index, group)
        return nil
    }

    /// Removes the entry for `key`.
    /// - Returns: the removed value.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let index = indices.removeValue(forKey: key) else { return nil }
        return releaseNode(index).value
    }

    /// Removes the least recently used entry.
    mutating func removeLeastRecentlyUsed() -> Removed? {
        guard tail != Self.none else { return nil }
        let index = tail
        indices.removeValue(forKey: nodes[index].key!)
        return releaseNode(index)
    }

    /// Removes every entry of `group`.
    /// - Returns: the removed entries, most recently added to the group first.
    mutating func removeGroup(_ group: Group) -> [Removed] {
        guard let chain = groups[group] else { return [] }
        var removed: [Removed] = []
        removed.reserveCapacity(chain.count)
        var index = chain.head
        while index != Self.none {
            let next = nodes[index].groupNext
            indices.removeValue(forKey: nodes[index].key!)
            removed.append(releaseNode(index))
            index = next
        }
        return removed
    }

    /// Removes everything and gives the memory back.
    mutating func removeAll() {
        self = CostLRUStore()
    }

    // MARK: - Inspecting

    /// Keys from the most to the least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var index = head
        while index != Self.none {
            keys.append(nodes[index].key!)
            index = nodes[index].next
        }
        return keys
    }

    /// The keys of `group`'s entries, most recently added to the group first.
    func keys(inGroup group: Group) -> [Key] {
        var keys: [Key] = []
        var index = groups[group]?.head ?? Self.none
        while index != Self.none {
            keys.append(nodes[index].key!)
            index = nodes[index].groupNext
        }
        return keys
    }

    /// The group of the entry for `key`.
    func group(forKey key: Key) -> Group? {
        indices[key].flatMap { nodes[$0].group }
    }

    var groupCount: Int { groups.count }

    // MARK: - Nodes

    private mutating func allocateNode(key: Key, value: Value, cost: Int) -> Int {
        let node = Node(
            key: key, value: value, group: nil, cost: cost, previous: Self.none, next: Self.none,
            groupPrevious: Self.none, groupNext: Self.none)
        if freeHead != Self.none {
            let index = freeHead
            freeHead = nodes[index].next
            nodes[index] = node
            return index
        }
        nodes.append(node)
        return nodes.count - 1
    }

    /// Unlinks a node whose key is already out of `indices`, empties it onto the free list
    /// and hands back what it held.
    private mutating func releaseNode(_ index: Int) -> Removed {
        unlink(index)
        unlinkFromGroup(index)
        let cost = nodes[index].cost
        totalCost -= cost
        let removed = Removed(key: nodes[index].key.take()!, value: nodes[index].value.take()!, cost: cost)
        nodes[index].cost = 0
        nodes[index].previous = Self.none
        nodes[index].next = freeHead
        freeHead = index
        return removed
    }

    // MARK: - Recency list

    private mutating func moveToFront(_ index: Int) {
        guard index != head else { return }
        unlink(index)
        linkAtFront(index)
    }

    private mutating func linkAtFront(_ index: Int) {
        nodes[index].previous = Self.none
        nodes[index].next = head
        if head != Self.none { nodes[head].previous = index } else { tail = index }
        head = index
    }

    private mutating func unlink(_ index: Int) {
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous != Self.none { nodes[previous].next = next } else { head = next }
        if next != Self.none { nodes[next].previous = previous } else { tail = previous }
        nodes[index].previous = Self.none
        nodes[index].next = Self.none
    }

    // MARK: - Group lists

    /// Puts a node at the head of `group`'s list (one dictionary access).
    private mutating func linkIntoGroup(_ index: Int, _ group: Group?) {
        nodes[index].group = group
        nodes[index].groupPrevious = Self.none
        guard let group else {
            nodes[index].groupNext = Self.none
            return
        }
        let oldHead = Self.pushHead(index, onto: &groups[group, default: GroupChain(head: Self.none, count: 0)])
        nodes[index].groupNext = oldHead
        if oldHead != Self.none { nodes[oldHead].groupPrevious = index }
    }

    /// Takes a node out of its group's list, dropping the group when it empties
    /// (one dictionary access).
    private mutating func unlinkFromGroup(_ index: Int) {
        guard let group = nodes[index].group.take() else { return }
        let previous = nodes[index].groupPrevious
        let next = nodes[index].groupNext
        if previous != Self.none { nodes[previous].groupNext = next }
        if next != Self.none { nodes[next].groupPrevious = previous }
        Self.detach(wasHead: previous == Self.none, next: next, from: &groups[group])
        nodes[index].groupPrevious = Self.none
        nodes[index].groupNext = Self.none
    }

    private static func pushHead(_ index: Int, onto chain: inout GroupChain) -> Int {
        let oldHead = chain.head
        chain.head = index
        chain.count += 1
        return oldHead
    }

    private static func detach(wasHead: Bool, next: Int, from chain: inout GroupChain?) {
        guard chain != nil else { return }
        if chain!.count == 1 {
            chain = nil
        } else {
            chain!.count -= 1
            if wasHead { chain!.head = next }
        }
    }
}

extension CostLRUStore: Sendable where Key: Sendable, Group: Sendable, Value: Sendable {}
extension CostLRUStore.Node: Sendable where Key: Sendable, Group: Sendable, Value: Sendable {}
extension CostLRUStore.Removed: Sendable where Key: Sendable, Value: Sendable {}
