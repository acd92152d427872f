import Darkroom
import DarkroomCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

// MARK: - BatchSchedule

/// The order in which several workers take a batch's files, so that they finish together.
///
/// Each worker takes the next file when it is done with one, so the order decides which
/// worker renders what. The files are sorted most expensive first (longest-processing-time
/// order), so that no worker is left with one big file at the end while the others idle;
/// then the cheapest ``tailLength`` files (never the first file of each worker) are arranged so
/// that the workers' estimated finishing times are as close as possible: every order of the
/// tail is simulated (at most 5,040, a fraction of a millisecond). With seven photos on two
/// workers that roughly halves the expected idle time at the end compared with plain
/// longest-first order, even when the estimates are 10% off.
///
/// The cost of a file is estimated from its header and size for the batch's targets, because
/// the file size alone misleads: a 4.6 MB progressive JPEG thumbnailed from its DC scans costs
/// half as much as a 1.9 MB baseline JPEG, whose every byte must be entropy-decoded. Reading
/// the headers costs a few tens of microseconds per file, so only batches of up to
/// ``probedFileLimit`` files are probed; larger ones (where the tail matters less) are ordered
/// by size.
///
/// ```swift
/// let ordered = BatchSchedule.ordered(files, targets: targets, workers: 2)
/// ```
public enum BatchSchedule {
    /// Batches with more files than this are ordered by file size, without reading headers.
    public static let probedFileLimit = 1024

    /// How many of the cheapest files are arranged by simulation (7! = 5,040 orders).
    public static let tailLength = 7

    /// How many bytes of a file are read to find its header (a JPEG's frame header follows
    /// its EXIF and ICC segments; when it is further, the file size is the estimate).
    static let headBytes = 64 * 1024

    /// `files` in the order `workers` workers should take them: most expensive first, the
    /// tail balanced. A file that cannot be examined goes last, where its error is reported.
    /// The decoders `registry` picks estimate each decode's cost.
    public static func ordered(
        _ files: [BatchInput], targets: [RenderTarget], workers: Int, registry: Registry = .standard
    ) -> [BatchInput] {
        let probes = files.count <= probedFileLimit
        let chains = targets.map(\.chain)
        let costs = files.map { cost(ofFile: $0.path, chains: chains, probingHeader: probes, registry: registry) ?? -1 }
        return balancedOrder(costs: costs, workers: workers).map { files[$0] }
    }

    // MARK: - Ordering

    /// The indices of `costs` in the order that `workers` workers, each taking the next item
    /// when free, should take them: longest first, then the last ``tailLength`` items (after
    /// at least one per worker) in the order whose simulated finishing time is earliest; among
    /// equally good orders, the one taking larger items earlier (estimates err, and a large
    /// item late costs most). Negative costs (unknown) go last, in their original order.
    public static func balancedOrder(costs: [Double], workers: Int) -> [Int] {
        let known = costs.indices.filter { costs[$0] >= 0 }
        let unknown = costs.indices.filter { costs[$0] < 0 }
        let longestFirst = known.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
        // With a file or none per worker there is no tail to arrange.
        guard workers > 1, longestFirst.count > workers else { return longestFirst + unknown }
        let head = Array(longestFirst.prefix(max(workers, longestFirst.count - tailLength)))
        var loads = [Double](repeating: 0, count: workers)
        for index in head { take(costs[index], loads: &loads) }
        let tail = Array(longestFirst.dropFirst(head.count))
        return head + bestOrder(of: tail, costs: costs, startingFrom: loads) + unknown
    }

    /// Adds `cost` to the least-loaded worker, as a free worker taking the next item would.
    private static func take(_ cost: Double, loads: inout [Double]) {
        var least = 0
        for worker in loads.indices where loads[worker] < loads[least] { least = worker }
        loads[least] += cost
    }

    /// Every order of `items` (Heap's algorithm), simulated from `loads`: the earliest finish
    /// wins, then the order whose costs are lexicographically largest.
    private static func bestOrder(of items: [Int], costs: [Double], startingFrom loads: [Double]) -> [Int] {
        var simulated = loads  // reused: thousands of orders, no allocation each
        func finish(_ order: [Int]) -> Double {
            for worker in simulated.indices { simulated[worker] = loads[worker] }
            for index in order { take(costs[index], loads: &simulated) }
            return simulated.max() ?? 0
        }
        var order = items
        var best = order
        var bestFinish = finish(order)
        var counters = [Int](repeating: 0, count: order.count)
        var position = 1
        while position < order.count {
            if counters[position] < position {
                order.swapAt(position % 2 == 0 ? 0 : counters[position], position)
                let candidate = finish(order)
                let tied = abs(candidate - bestFinish) <= 1e-9
                if candidate < bestFinish - 1e-9 || (tied && startsWithLarger(order, than: best, costs: costs)) {
                    best = order
                    bestFinish = candidate
                }
                counters[position] += 1
                position = 1
            } else {
                counters[position] = 0
                position += 1
            }
        }
        return best
    }

    /// Whether `order` takes a larger item at the first position where the two differ.
    private static func startsWithLarger(_ order: [Int], than other: [Int], costs: [Double]) -> Bool {
        for (a, b) in zip(order, other) where costs[a] != costs[b] { return costs[a] > costs[b] }
        return false
    }

    // MARK: - Cost of a file

    /// The estimated cost of rendering the file at `path` for `chains`; `nil` when it cannot
    /// be opened.
    static func cost(ofFile path: String, chains: [FilterChain], probingHeader: Bool, registry: Registry) -> Double? {
        // Non-blocking, so that a FIFO nobody writes to does not hold the batch up here.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard probingHeader else { return sizeOnlyCost(fileBytes: size) }
        let header = try? [UInt8](unsafeUninitializedCapacity: min(size, headBytes)) { buffer, count in
            count = max(0, pread(descriptor, buffer.baseAddress, buffer.count, 0))
        }.withUnsafeBytes { try ImageProbe.probe($0) }
        guard let header else { return sizeOnlyCost(fileBytes: size) }
        // One decode per distinct scale the chains need (see VariantRenderer); the file's
        // fixed cost is paid once.
        let hints = decodeHints(header: header, chains: chains, registry: registry)
        let decodes = hints.map { estimatedCost(header: header, fileBytes: size, decodeHint: $0, registry: registry) }
        return decodes.reduce(0, +) - Double(max(0, hints.count - 1)) * fixedCost
    }

    /// The distinct decodes rendering `chains` of a file with this header takes: the decoder's
    /// canonical size hints, as the renderers group them.
    static func decodeHints(header: ImageHeader, chains: [FilterChain], registry: Registry) -> [PixelSize?] {
        var hints: [PixelSize?] = []
        for chain in chains {
            guard let (_, options) = try? registry.canonicalDecode(header, sizeHint: chain.sizeHint(forSourceSize: header.uprightSize))
            else { return [nil] }
            let hint = options.sizeHint
            if !hints.contains(hint) { hints.append(hint) }
        }
        return hints.isEmpty ? [nil] : hints
    }

    // MARK: - Cost model

    /// A relative cost (roughly microseconds on a 2020s x86 core) of rendering a file with
    /// this header and size at this decode hint: the fixed cost of a file plus what the
    /// decoder `registry` picks estimates for the decode (the work that dominates a batch).
    public static func estimatedCost(
        header: ImageHeader, fileBytes: Int, decodeHint: PixelSize?, registry: Registry = .standard
    ) -> Double {
        let options = DecodeOptions(sizeHint: decodeHint)
        guard let decoder = try? registry.decoder(for: header, options: options) else { return sizeOnlyCost(fileBytes: fileBytes) }
        return fixedCost + decoder.estimatedDecodeCost(for: header, byteCount: fileBytes, options: options)
    }

    /// What every file costs: opening, probing, resizing, encoding and writing a small output.
    static let fixedCost = 1_000.0

    /// The estimate when only the size is known: a baseline JPEG of that size (its blocks
    /// folded into the per-byte figure).
    static func sizeOnlyCost(fileBytes: Int) -> Double {
        fixedCost + 11.5 * Double(fileBytes) / 1_000
    }
}
