import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Ordering a batch for several workers

@Suite("A batch with several workers starts with the files that cost most to render")
struct BatchScheduleTests {
    let registry = Registry.standard

    func thumbnail(_ side: Int) throws -> [RenderTarget] {
        try [RenderTarget(
            name: "t", chain: FilterChain([registry.filter(parsing: "aspect-fit(height=\(side),width=\(side))")]),
            encoding: VariantEncoding(format: .jpeg))]
    }

    func jpeg(_ width: Int, _ height: Int, progressive: Bool, in folder: TemporaryDirectory, name: String) throws -> BatchInput {
        let path = folder.path(name)
        let options = EncodeOptions(format: .jpeg, quality: 95, progressive: progressive)
        try AtomicFileWriter.write(try registry.encode(Pattern.photo(width: width, height: height), options: options), to: path)
        return BatchInput(path: path, relativeStem: String(name.split(separator: ".")[0]))
    }

    @Test("baseline JPEGs go in order of size, and a file that cannot be opened goes last")
    func baselineBySize() throws {
        let folder = try TemporaryDirectory()
        let small = try jpeg(160, 120, progressive: false, in: folder, name: "small.jpg")
        let large = try jpeg(640, 480, progressive: false, in: folder, name: "large.jpg")
        let middle = try jpeg(320, 240, progressive: false, in: folder, name: "middle.jpg")
        let missing = BatchInput(path: folder.path("missing.jpg"), relativeStem: "missing")
        let ordered = BatchSchedule.ordered([missing, small, large, middle], targets: try thumbnail(32), workers: 2)
        #expect(ordered.map(\.relativeStem) == ["large", "middle", "small", "missing"])
    }

    @Test("a progressive JPEG thumbnailed from its DC scans is cheaper than a baseline file of fewer bytes")
    func progressiveAtOneEighth() throws {
        let folder = try TemporaryDirectory()
        let progressive = try jpeg(1600, 1200, progressive: true, in: folder, name: "progressive.jpg")
        let baseline = try jpeg(1400, 1050, progressive: false, in: folder, name: "baseline.jpg")
        let sizes = try [progressive, baseline].map {
            try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as! Int
        }
        #expect(sizes[0] > sizes[1])
        // 1600×1200 / 8 = 200×150 ≥ the 1.75× hint of a 64-pixel thumbnail: DC scans only.
        let thumbnailOrder = BatchSchedule.ordered([progressive, baseline], targets: try thumbnail(64), workers: 2)
        #expect(thumbnailOrder.map(\.relativeStem) == ["baseline", "progressive"])
        // A large output needs every scan: then the progressive file is the expensive one.
        let largeOrder = BatchSchedule.ordered([baseline, progressive], targets: try thumbnail(1200), workers: 2)
        #expect(largeOrder.map(\.relativeStem) == ["progressive", "baseline"])
    }

    @Test("the cost model follows the decoder's paths")
    func costModel() {
        let baseline = ImageHeader(format: .jpeg, width: 5120, height: 2880)
        let progressive = ImageHeader(format: .jpeg, width: 5120, height: 2880, isProgressive: true)
        let thumb = PixelSize(width: 448, height: 252)
        // Baseline: entropy decoding of every byte, whatever the scale.
        #expect(BatchSchedule.estimatedCost(header: baseline, fileBytes: 2_000_000, decodeHint: thumb)
            == BatchSchedule.estimatedCost(header: baseline, fileBytes: 2_000_000, decodeHint: nil))
        #expect(BatchSchedule.estimatedCost(header: baseline, fileBytes: 2_000_000, decodeHint: thumb)
            > BatchSchedule.estimatedCost(header: baseline, fileBytes: 1_000_000, decodeHint: thumb))
        // Progressive at 1/8 (640×360 ≥ the hint) is cheaper than at full size.
        let eighth = BatchSchedule.estimatedCost(header: progressive, fileBytes: 4_600_000, decodeHint: thumb)
        let full = BatchSchedule.estimatedCost(header: progressive, fileBytes: 4_600_000, decodeHint: nil)
        #expect(eighth < full / 5)
        #expect(eighth < BatchSchedule.estimatedCost(header: baseline, fileBytes: 2_000_000, decodeHint: thumb))
        // A hint one pixel beyond 1/8 takes the full path.
        let beyond = PixelSize(width: 641, height: 252)
        #expect(BatchSchedule.estimatedCost(header: progressive, fileBytes: 4_600_000, decodeHint: beyond) == full)
    }

    // MARK: - Balancing the tail

    /// When the workers finish, taking items in `order` as each becomes free.
    func finish(_ order: [Int], costs: [Double], workers: Int) -> Double {
        var loads = [Double](repeating: 0, count: workers)
        for index in order { loads[loads.indices.min { loads[$0] < loads[$1] }!] += costs[index] }
        return loads.max()!
    }

    @Test("the cheapest files are arranged so that two workers finish together")
    func balancedTail() {
        // Thread CPU milliseconds of the seven T1 files (shell, cups, volna, path, ripple, glow, leaf).
        let costs = [26, 24.5, 14, 13.8, 9.2, 8.7, 7.5]
        let longestFirst = Array(costs.indices)
        #expect(finish(longestFirst, costs: costs, workers: 2) == 55.2)
        let balanced = BatchSchedule.balancedOrder(costs: costs, workers: 2)
        #expect(balanced.sorted() == Array(costs.indices))
        // The best split is {26, 9.2, 8.7, 7.5} against {24.5, 14, 13.8}: 51.4 and 52.3.
        #expect(abs(finish(balanced, costs: costs, workers: 2) - 52.3) < 1e-9)
        #expect(Array(balanced.prefix(2)) == [0, 1])
    }

    @Test("orders are longest first when nothing better exists, and unknown costs go last")
    func longestFirstAndUnknowns() {
        let costs: [Double] = [5, -1, 9, 7, -1]
        #expect(BatchSchedule.balancedOrder(costs: costs, workers: 1) == [2, 3, 0, 1, 4])
        #expect(BatchSchedule.balancedOrder(costs: costs, workers: 2) == [2, 3, 0, 1, 4])
        // Equal costs keep their order; a long head is left in longest-first order.
        let many = (0..<20).map { Double(20 - $0) }
        let ordered = BatchSchedule.balancedOrder(costs: many, workers: 3)
        #expect(Array(ordered.prefix(20 - BatchSchedule.tailLength)) == Array(0..<(20 - BatchSchedule.tailLength)))
        #expect(finish(ordered, costs: many, workers: 3) <= finish(Array(0..<20), costs: many, workers: 3))
        #expect(BatchSchedule.balancedOrder(costs: [3, 3, 3], workers: 2) == [0, 1, 2])
    }

    @Test("4:4:4 colour costs more than 4:2:0 at the same size")
    func chromaSampling() {
        let full = ImageHeader(format: .jpeg, width: 2560, height: 1600, codedSamplesPerPixel: 3)
        let quarter = ImageHeader(format: .jpeg, width: 2560, height: 1600, codedSamplesPerPixel: 1.5)
        let hint = PixelSize(width: 448, height: 280)
        #expect(BatchSchedule.estimatedCost(header: full, fileBytes: 600_000, decodeHint: hint)
            > BatchSchedule.estimatedCost(header: quarter, fileBytes: 600_000, decodeHint: hint) + 1_000)
    }
}
