// Memory-cache micro-benchmark: see README.md for the command.
import DarkroomCore
import Dispatch

// MARK: - Timing

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Best of `repeats` runs (the machine is shared); `prepare` runs untimed before each.
func best(_ repeats: Int = 5, prepare: () -> Void = {}, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<repeats {
        prepare()
        times.append(seconds(body))
    }
    return times.min()!
}

func report(_ name: String, operations: Int, seconds: Double) {
    let perSecond = Double(operations) / seconds
    let millions = (perSecond / 1e4).rounded() / 100
    let nanoseconds = (seconds / Double(operations) * 1e10).rounded() / 10
    let padded = name + String(repeating: " ", count: max(0, 46 - name.count))
    print("\(padded) \(millions) M/s   \(nanoseconds) ns/op")
}

/// Keeps results observable so the optimiser cannot drop the work.
nonisolated(unsafe) var sink = 0

// MARK: - Inputs

let entries = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
let lookups = 1_000_000
// Realistic keys: CacheKey-shaped strings, long enough to live on the heap.
let keys = (0..<entries).map { "v1|/photos/2024/img-\($0).jpg|aspect-fill(256x256)>webp(q=80)" }
let absent = (0..<entries).map { "v1|/photos/2024/img-\($0).jpg|missing" }
var random = SystemRandomNumberGenerator()
let order = (0..<lookups).map { _ in Int.random(in: 0..<entries, using: &random) }
let pixel = Image(width: 1, height: 1) { $0.initialize(repeating: 7) }
print("\(entries) entries, \(lookups) random lookups, best of 5\n")

// MARK: - CostLRUStore

typealias Store = CostLRUStore<String, String, Image>
var store = Store()

report("store: insert \(entries) new keys", operations: entries, seconds: best(prepare: { store = Store() }) {
    for key in keys { store.insert(pixel, cost: 4, forKey: key, group: nil) }
})
report("store: insert with a source (group) each", operations: entries, seconds: best(prepare: { store = Store() }) {
    for (i, key) in keys.enumerated() { store.insert(pixel, cost: 4, forKey: key, group: keys[i / 10 * 10]) }
})
report("store: hit (move to front)", operations: lookups, seconds: best {
    for i in order { sink &+= store.value(forKey: keys[i])!.width }
})
report("store: miss", operations: lookups, seconds: best {
    for i in order where store.value(forKey: absent[i]) != nil { sink &+= 1 }
})
report("store: churn (insert new + evict oldest)", operations: 2 * entries, seconds: best {
    for key in absent {
        store.insert(pixel, cost: 4, forKey: key, group: nil)
        sink &+= store.removeLeastRecentlyUsed()!.cost
    }
    for key in keys {
        store.insert(pixel, cost: 4, forKey: key, group: nil)
        sink &+= store.removeLeastRecentlyUsed()!.cost
    }
})
print("store: \(store.entries.count) slots for \(store.count) entries after churn (free list reuse)")

// Baseline: a plain dictionary doing the same inserts and lookups, no recency order.
var dictionary: [String: Image] = [:]
report("baseline [String: Image]: insert", operations: entries, seconds: best(prepare: { dictionary = [:] }) {
    for key in keys { dictionary[key] = pixel }
})
report("baseline [String: Image]: hit", operations: lookups, seconds: best {
    for i in order { sink &+= dictionary[keys[i]]!.width }
})
print()

// MARK: - AutoPurgingImageCache

var cache = AutoPurgingImageCache(memoryCapacity: 4 * entries, preferredMemoryUsageAfterPurge: 3 * entries)
report("cache: add \(entries) (lock, no purge)", operations: entries, seconds: best(prepare: {
    cache = AutoPurgingImageCache(memoryCapacity: 4 * entries, preferredMemoryUsageAfterPurge: 3 * entries)
}) {
    for key in keys { cache.add(pixel, withIdentifier: key) }
})
report("cache: image(withIdentifier:) hit", operations: lookups, seconds: best {
    for i in order { sink &+= cache.image(withIdentifier: keys[i])!.width }
})
report("cache: image(withIdentifier:) miss", operations: lookups, seconds: best {
    for i in order where cache.image(withIdentifier: absent[i]) != nil { sink &+= 1 }
})
let shared = cache
let threads = 2
report("cache: hit, \(threads) threads at once (total)", operations: lookups, seconds: best {
    DispatchQueue.concurrentPerform(iterations: threads) { t in
        var local = 0
        for i in stride(from: t, to: lookups, by: threads) {
            local &+= shared.image(withIdentifier: keys[order[i]])!.width
        }
        if local == 0 { print("") }
    }
})
report("cache: add over capacity (purges to 75%)", operations: 2 * entries, seconds: best {
    for key in absent { cache.add(pixel, withIdentifier: key) }
    for key in keys { cache.add(pixel, withIdentifier: key) }
})
print("\n\(cache.statistics)")
if sink == 42 { print("") }
