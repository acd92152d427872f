import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - Output sizes predicted before decoding

@Suite("A filter that predicts its output size predicts the size apply gives")
struct OutputSizeTests {
    /// Every standard filter with its default arguments, and the resizes with a box.
    static func filters() throws -> [any ImageFilter] {
        var filters: [any ImageFilter] = StandardFilters.schemas.compactMap { try? $0.makeFilter([]) }
        for (name, box) in [("scale", (40, 30)), ("aspect-fit", (40, 30)), ("aspect-fill", (40, 30)), ("aspect-fill", (90, 10))] {
            for upscale in [true, false] {
                let schema = try #require(StandardFilters.schemas.first { $0.name == name })
                filters.append(try schema.makeFilter([
                    ("width", .integer(box.0)), ("height", .integer(box.1)), ("upscale", .boolean(upscale)),
                ]))
            }
        }
        // The canvas filters, whose arguments (and the input) decide the size.
        filters += [
            try ExtendFilter(top: 3, right: 0, bottom: 7, left: 11), try PadFilter(width: 50, height: 20),
            try PadFilter(width: 2, height: 90, gravity: "northwest"),
        ]
        filters += try [90, 180, 270, -90, 30, 45, 137.5, 359].map { try RotateFilter(angle: $0) }
        return filters
    }

    @Test("over wide, tall, square and tiny inputs", arguments: [(64, 48), (17, 61), (33, 33), (1, 5)])
    func predictionsHold(width: Int, height: Int) throws {
        let image = Pattern.photo(width: width, height: height)
        var predicted = 0
        for filter in try Self.filters() {
            guard let size = filter.outputSize(forInputSize: image.size) else { continue }
            predicted += 1
            #expect(try filter.apply(to: image).size == size, "\(filter.identifier) on \(width)×\(height)")
        }
        // Colour, convolution, mask and mirror filters and the three resizes all predict.
        #expect(predicted >= 20)
    }

    @Test("a chain predicts only when every filter does")
    func chains() throws {
        let fit = try AspectFitFilter(width: 100, height: 100)
        let chain = FilterChain([fit, try #require(StandardFilters.schemas.first { $0.name == "grayscale" }).makeFilter([])])
        #expect(chain.outputSize(forSourceSize: PixelSize(width: 400, height: 200)) == PixelSize(width: 100, height: 50))
        let trim = try #require(StandardFilters.schemas.first { $0.name == "trim" }).makeFilter([])
        #expect(FilterChain([fit, trim]).outputSize(forSourceSize: PixelSize(width: 400, height: 200)) == nil)
    }
}
