import DarkroomCache
import DiskCacheWorkload
import Foundation
import DarkroomCore

// MARK: - DiskCacheWorker
//
// A child process for the disk cache tests (Tests/DarkroomCacheTests/DiskCacheCrashTests.swift
// and DiskCacheMultiProcessTests.swift). Every payload is a pure function of its key index —
// `DiskWorkload`, shared with the tests — so the tests can check that whatever
// reads back is exactly what was written for that key.
//
//   DiskCacheWorker store-loop <folder> <keys> <minSize> <maxSize>
//       Prints "ready" after its first store, then stores random keys of 0..<keys from four
//       threads until it is killed. Payloads are generated once, so its time goes to writing.
//   DiskCacheWorker mix <folder> <keys> <minSize> <maxSize> <limit> <operations> <seed> <firstKey>
//       Stores, reads (checking every hit byte for byte), removes, purges and sweeps keys of
//       firstKey..<firstKey+keys at random in a cache bounded by <limit>;
//       prints "hits=… misses=… stores=… bad=…" and exits 1 if bad > 0.

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("DiskCacheWorker: " + message + "\n").utf8))
    exit(2)
}

// A store-loop runs until it is killed: if the test that started it dies first, end with it
// rather than writing forever as an orphan (prctl's PR_SET_PDEATHSIG is a C variadic, which
// Swift cannot call, so a thread watches for the parent to change).
let parent = getppid()
Thread.detachNewThread {
    while getppid() == parent { usleep(100_000) }
    exit(3)
}

let arguments = CommandLine.arguments
guard arguments.count >= 6, let keys = Int(arguments[3]), let minSize = Int(arguments[4]), let maxSize = Int(arguments[5]),
    keys > 0, minSize >= 0, maxSize >= minSize
else { fail("usage: store-loop|mix <folder> <keys> <minSize> <maxSize> …") }
let folder = arguments[2]

switch arguments[1] {
case "store-loop":
    let cache: DiskCache
    do { cache = try DiskCache(directory: folder) } catch { fail("\(error)") }
    let entries = (0..<keys).map { DiskWorkload.entry($0, minSize: minSize, maxSize: maxSize) }
    @Sendable func storeForever(announcing: Bool) -> Never {
        var announced = !announcing
        while true {
            let index = Int.random(in: 0..<keys)
            do { try cache.store(entries[index], for: DiskWorkload.key(index)) } catch { fail("\(error)") }
            if !announced {
                say("ready")
                announced = true
            }
        }
    }
    // Several writers at once, as in a server, so that a kill finds some of them mid-write.
    for _ in 1..<4 { Thread.detachNewThread { storeForever(announcing: false) } }
    storeForever(announcing: true)

case "mix":
    guard arguments.count == 10, let limit = Int(arguments[6]), let operations = Int(arguments[7]),
        let seed = UInt64(arguments[8]), let firstKey = Int(arguments[9])
    else { fail("usage: mix <folder> <keys> <minSize> <maxSize> <limit> <operations> <seed> <firstKey>") }
    let cache: DiskCache
    do { cache = try DiskCache(directory: folder, limit: limit) } catch { fail("\(error)") }
    var random = seed
    func next(_ bound: Int) -> Int {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((random >> 33) % UInt64(bound))
    }
    var hits = 0, misses = 0, stores = 0, bad = 0
    for _ in 0..<operations {
        let index = firstKey + next(keys)
        switch next(40) {
        case 0..<18:
            if let entry = cache.entry(for: DiskWorkload.key(index)) {
                hits += 1
                if entry != DiskCacheEntry(
                    bytes: DiskWorkload.payload(index, minSize: minSize, maxSize: maxSize), format: .png,
                    etag: "\"\(index)\"", created: entry.created) {
                    bad += 1
                }
            } else {
                misses += 1
            }
        case 18..<36:
            do { try cache.store(DiskWorkload.entry(index, minSize: minSize, maxSize: maxSize), for: DiskWorkload.key(index)) } catch {
                fail("\(error)")
            }
            stores += 1
        case 36:
            cache.remove(DiskWorkload.key(index))
        case 37:
            cache.removeAll(forSource: DiskWorkload.key(index).source)
        default:
            cache.sweep()
        }
    }
    cache.flush()
    say("hits=\(hits) misses=\(misses) stores=\(stores) bad=\(bad)")
    exit(bad > 0 ? 1 : 0)

default:
    fail("unknown mode \(arguments[1])")
}
