import Synchronization

// MARK: - BoundedMemo

/// A thread-safe memo of values by string key, for answers that are cheap to keep and costly
/// to find again (a resolved file location, a memory hit's HTTP header fields). Bounded: when
/// ``capacity`` keys are remembered, remembering a new one starts the memo again empty, so a
/// client sending endless distinct keys cannot grow it. A value must be checked against what
/// it describes before it is used; the memo only keeps it.
///
/// ```swift
/// let memo = BoundedMemo<Int>(capacity: 2)
/// memo.remember("a", 1)
/// memo.entry(for: "a")   // 1
/// ```
package final class BoundedMemo<Value: Sendable>: Sendable {
    /// What is remembered per key.
    package typealias Entry = Value

    /// The most keys remembered at once.
    package let capacity: Int
    private let entries = Mutex<[String: Value]>([:])

    package init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    package func entry(for key: String) -> Value? {
        entries.withLock { $0[key] }
    }

    package func remember(_ key: String, _ value: Value) {
        entries.withLock { entries in
            if entries.count >= capacity && entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
    }

    /// How many keys are remembered.
    package var count: Int { entries.withLock { $0.count } }
}
