import DarkroomCore
import DarkroomJPEG
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// MARK: - BatchSchedule

/// The order in which several workers take a batch's files: the most expensive first
/// (longest-processing-time order), so that no worker is left with one big file at the end
/// while the others idle.
///
/// The cost of a file is estimated from its header and size for the batch's targets, because
/// the file size alone misleads: a 4.6 MB progressive JPEG thumbnailed from its DC scans costs
/// half as much as a 1.9 MB baseline JPEG, whose every byte must be entropy-decoded. Reading
/// the headers costs a few tens of microseconds per file, so only batches of up to
/// ``probedFileLimit`` files are probed; larger ones (where the tail matters less) are ordered
/// by size.
///
/// ```swift
/// let ordered = BatchSchedule.mostExpensiveFirst(files, targets: targets)
/// ```
public enum BatchSchedule {
    /// Batches with more files than this are ordered by file size, without reading headers.
    public static let probedFileLimit = 1024

    /// How many bytes of a file are read to find its header (a JPEG's frame header follows
    /// its EXIF and ICC segments; when it is further, the file size is the estimate).
    static let headBytes = 64 * 1024

    /// `files` ordered by estimated cost, most expensive first; ties keep their order. A file
    /// that cannot be examined goes last, where its error is reported.
    public static func mostExpensiveFirst(_ files: [BatchInput], targets: [RenderTarget]) -> [BatchInput] {
        let probes = files.count <= probedFileLimit
        let chains = targets.map(\.chain)
        let costed = files.enumerated().map { index, input -> (index: Int, cost: Double, input: BatchInput) in
            (index, cost(ofFile: input.path, chains: chains, probingHeader: probes) ?? -1, input)
        }
        return costed.sorted { $0.cost != $1.cost ? $0.cost > $1.cost : $0.index < $1.index }.map(\.input)
    }

    /// The estimated cost of rendering the file at `path` for `chains`; `nil` when it cannot
    /// be opened.
    static func cost(ofFile path: String, chains: [FilterChain], probingHeader: Bool) -> Double? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        guard probingHeader else { return sizeOnlyCost(fileBytes: size) }
        let header = try? [UInt8](unsafeUninitializedCapacity: min(size, headBytes)) { buffer, count in
            count = max(0, pread(descriptor, buffer.baseAddress, buffer.count, 0))
        }.withUnsafeBytes { try ImageProbe.probe($0) }
        guard let header else { return sizeOnlyCost(fileBytes: size) }
        let hint = VariantRenderer.decodeHint(for: chains, sourceSize: header.uprightSize)
        return estimatedCost(header: header, fileBytes: size, decodeHint: hint)
    }

    // MARK: - Cost model

    /// A relative cost (roughly microseconds on a 2020s x86 core) of decoding a file with this
    /// header and size at this hint, the work that dominates a batch. Calibrated on the
    /// benchmark corpus (`Benchmarks/peers.sh` T1): a baseline JPEG costs about 11.5 µs per KB
    /// of entropy-coded data at any DCT scale; a progressive JPEG decoded at 1/8 reads only its
    /// DC scans, about 0.6 µs per thousand source pixels (plus skimming the rest of the file),
    /// and one decoded at a larger scale about three times a baseline file of its size; other
    /// formats are taken to cost in proportion to their bytes plus their pixels.
    public static func estimatedCost(header: ImageHeader, fileBytes: Int, decodeHint: PixelSize?) -> Double {
        let kilobytes = Double(fileBytes) / 1_000
        let kilopixels = Double(header.width) * Double(header.height) / 1_000
        switch header.format {
        case .jpeg:
            guard header.isProgressive else { return sizeOnlyCost(fileBytes: fileBytes) }
            if JPEGDecoder.scaleDenominator(for: header, sizeHint: decodeHint) == 8 {
                return fixedCost + 0.4 * kilobytes + 0.6 * kilopixels
            }
            return fixedCost + 3 * 11.5 * kilobytes
        default:
            return sizeOnlyCost(fileBytes: fileBytes) + 2 * kilopixels
        }
    }

    /// What every file costs: opening, probing, encoding and writing a small output.
    static let fixedCost = 1_500.0

    /// The estimate when only the size is known: a baseline JPEG of that size.
    static func sizeOnlyCost(fileBytes: Int) -> Double {
        fixedCost + 11.5 * Double(fileBytes) / 1_000
    }
}
