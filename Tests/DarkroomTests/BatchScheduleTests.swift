import Darkroom
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
        let ordered = BatchSchedule.mostExpensiveFirst([missing, small, large, middle], targets: try thumbnail(32))
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
        let thumbnailOrder = BatchSchedule.mostExpensiveFirst([progressive, baseline], targets: try thumbnail(64))
        #expect(thumbnailOrder.map(\.relativeStem) == ["baseline", "progressive"])
        // A large output needs every scan: then the progressive file is the expensive one.
        let largeOrder = BatchSchedule.mostExpensiveFirst([baseline, progressive], targets: try thumbnail(1200))
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
}
