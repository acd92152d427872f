// Micro-benchmark of DiskCache: stores, hits and misses for thumbnail-sized entries, each next to
// the least the same job can cost with plain system calls on the same folder (the baselines), so
// the cache's own overhead — headers, SHA-256 checks, access times, size accounting — shows as a
// ratio measured in the same run.
//
// Run with Benchmarks/disk-cache/run.sh [FOLDER] (a release build; FOLDER defaults to a new
// folder under $TMPDIR, and the filesystem it is on decides most of the numbers).
import DarkroomCache
import DarkroomCore
import FoundationEssentials
import Glibc

// MARK: - Timing

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// Runs `body` for each of `count` indices, `rounds` times after one warm-up round (`reset`
/// before each round), and returns the median µs per operation.
func time(rounds: Int = 5, count: Int, reset: () -> Void = {}, _ body: (Int) -> Void) -> Double {
    var perOperation: [Double] = []
    for round in 0...rounds {
        reset()
        let start = ContinuousClock.now
        for index in 0..<count { body(index) }
        let elapsed = microseconds(ContinuousClock.now - start) / Double(count)
        if round > 0 { perOperation.append(elapsed) }
    }
    return median(perOperation)
}

// MARK: - Baselines: the same jobs with plain system calls

/// Writes `bytes` to a temporary file in `folder`, `fsync`s it when asked and renames it to
/// `path`: the least a store that never exposes a partial file can do.
func plainStore(_ bytes: [UInt8], to path: String, in folder: String, sync: Bool) {
    let temporary = "\(folder)/\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "cannot create \(temporary)")
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    precondition(written == bytes.count)
    if sync { precondition(fsync(fd) == 0) }
    close(fd)
    precondition(rename(temporary, path) == 0)
}

/// Reads the whole file at `path`: open, `fstat`, one read, close.
func plainRead(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { return nil }
    let size = Int(status.st_size)
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        count = max(0, read(fd, buffer.baseAddress, size))
    }
    return bytes.count == size ? bytes : nil
}

// MARK: - Set-up

let arguments = CommandLine.arguments.dropFirst()
let base = arguments.first ?? getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
let root = "\(base)/darkroom-disk-cache-bench-\(getpid())"
let entryCount = 1_000

/// `count` keys of one source each, shaped like the pipeline's (a URL and a variant identifier).
func keys(_ count: Int, prefix: String) -> [CacheKey] {
    (0..<count).map {
        CacheKey(source: "https://127.0.0.1/\(prefix)/photo-\($0).jpg",
                 variant: "aspect-fill(gravity=center,height=256,kernel=lanczos3,width=256)>jpeg(quality=80)")
    }
}

func payload(_ size: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

print("DiskCache micro-benchmark: \(entryCount) entries per round, median of 5 rounds after a warm-up")
print("folder: \(root)")
print("")
print(padded("operation", 42) + " " + padded("size", 8) + padded("µs/op", 9, right: true) + padded("ops/s", 10, right: true) + "  vs plain")

/// `value` with one decimal (or two, for ratios), right-aligned in `width` columns.
func fixed(_ value: Double, decimals: Int, width: Int) -> String {
    let scale = decimals == 1 ? 10.0 : 100.0
    let scaled = Int((value * scale).rounded())
    let fraction = String(scaled % Int(scale))
    let text = "\(scaled / Int(scale)).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    return padded(text, width, right: true)
}

func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
    let gap = String(repeating: " ", count: max(0, width - text.count))
    return right ? gap + text : text + gap
}

func row(_ name: String, _ size: String, _ micros: Double, baseline: Double? = nil) {
    let ratio = baseline.map { fixed(micros / $0, decimals: 2, width: 6) + "×" } ?? ""
    let opsPerSecond = padded(String(Int((1e6 / micros).rounded())), 9, right: true)
    print(padded(name, 42) + " " + padded(size, 8) + fixed(micros, decimals: 1, width: 9) + " " + opsPerSecond + "  " + ratio)
}

// MARK: - Keys

let keySample = keys(entryCount, prefix: "key")
let keyMicros = time(count: entryCount) { index in
    precondition(keySample[index].persistentName.utf8.count == 64)
}
row("CacheKey.persistentName (SHA-256)", "-", keyMicros)
for (label, size) in [("8 KiB", 8 << 10), ("64 KiB", 64 << 10)] {
    let bytes = payload(size)
    let micros = time(count: 200) { _ in precondition(CacheKey.sha256Hex(bytes: bytes).utf8.count == 64) }
    row("SHA-256 of the payload (\(Int((Double(size) / micros).rounded())) MB/s)", label, micros)
}

// MARK: - Stores, hits and misses per size

for (label, size) in [("8 KiB", 8 << 10), ("64 KiB", 64 << 10)] {
    let bytes = payload(size)
    let entry = DiskCacheEntry(bytes: bytes, format: .jpeg)
    let folder = "\(root)/\(label.filter(\.isNumber))"
    let cache = try DiskCache(directory: "\(folder)/cache")
    let plainFolder = "\(folder)/plain"
    precondition(mkdir(plainFolder, 0o755) == 0)
    let cacheKeys = keys(entryCount, prefix: label)
    let plainPaths = (0..<entryCount).map { "\(plainFolder)/\($0).entry" }

    // Stores replace the round before's entries after the warm-up: both sides pay a rename
    // over an existing file.
    let store = time(count: entryCount) { index in try! cache.store(entry, for: cacheKeys[index]) }
    let plainSynced = time(count: entryCount) { index in
        plainStore(bytes, to: plainPaths[index], in: plainFolder, sync: true)
    }
    let plainUnsynced = time(count: entryCount) { index in
        plainStore(bytes, to: plainPaths[index], in: plainFolder, sync: false)
    }
    row("store (write, fsync, rename)", label, store, baseline: plainSynced)
    row("  plain: write + fsync + rename", label, plainSynced)
    row("  plain: write + rename, no fsync", label, plainUnsynced)

    let hit = time(count: entryCount) { index in
        precondition(cache.entry(for: cacheKeys[index])?.bytes.count == size)
    }
    let plainHit = time(count: entryCount) { index in precondition(plainRead(plainPaths[index])?.count == size) }
    row("hit (read, verify SHA-256, mark used)", label, hit, baseline: plainHit)
    row("  plain: open + read + close", label, plainHit)

    let missingKeys = keys(entryCount, prefix: "missing-\(label)")
    let miss = time(count: entryCount) { index in precondition(cache.entry(for: missingKeys[index]) == nil) }
    let plainMiss = time(count: entryCount) { index in precondition(plainRead(plainPaths[index] + ".none") == nil) }
    row("miss", label, miss, baseline: plainMiss)
    row("  plain: failed open", label, plainMiss)

    // Two tasks looking up at once (half the keys each): the time per hit of the pair.
    var pairs: [Double] = []
    for _ in 0..<5 {
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for half in 0..<2 {
                group.addTask {
                    for index in stride(from: half, to: entryCount, by: 2) {
                        precondition(cache.entry(for: cacheKeys[index]) != nil)
                    }
                }
            }
        }
        pairs.append(microseconds(ContinuousClock.now - start) / Double(entryCount))
    }
    row("hit, 2 tasks at once (per hit)", label, median(pairs), baseline: hit)
}

try? FileManager.default.removeItem(atPath: root)
