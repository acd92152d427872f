import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - The configured pixel limit holds filter outputs

@Suite("A filter's output is held to the configured pixel limit, before its pixels are made when the size decides it")
struct ConfiguredPixelLimitTests {
    /// Doubles the image's width without saying so beforehand: its output is known only once made.
    struct WidthDoubling: ImageFilter {
        var identifier: String { "double-width" }
        func apply(to image: Image) throws -> Image {
            try ScaleFilter(width: image.width * 2, height: image.height).apply(to: image)
        }
    }

    /// Counts its runs, so a test can tell whether a refused filter made any pixels.
    final class RunCounter: @unchecked Sendable {
        var runs = 0
    }

    /// An enlargement that predicts its size and counts the runs of `apply`.
    struct CountingFit: ImageFilter {
        let fit: AspectFitFilter
        let counter: RunCounter
        var identifier: String { fit.identifier }
        func outputSize(forInputSize size: PixelSize) -> PixelSize? { fit.outputSize(forInputSize: size) }
        func apply(to image: Image) throws -> Image {
            counter.runs += 1
            return try fit.apply(to: image)
        }
    }

    @Test("an enlargement past the limit is refused without running the filter, naming the filter, the size and max-pixels")
    func predictedOutputRefusedFirst() throws {
        let counter = RunCounter()
        let filter = CountingFit(fit: try AspectFitFilter(width: 9_166), counter: counter)
        let thumbnail = Pattern.photo(width: 24, height: 16)
        #expect {
            try filter.applyToEveryFrame(of: thumbnail, maxPixels: 4_000_000)
        } throws: { error in
            "\(error)" == "invalid aspect-fit output '9166×6111 (56 megapixels)': expected at most 4 megapixels (max-pixels)"
        }
        #expect(counter.runs == 0)
        // Within the limit it runs as before, to the same pixels as without one.
        let within = CountingFit(fit: try AspectFitFilter(width: 240), counter: counter)
        let limited = try within.applyToEveryFrame(of: thumbnail, maxPixels: 160 * 240)
        #expect(try limited == within.fit.apply(to: thumbnail))
        #expect(counter.runs == 1)
    }

    @Test("an output the pixels decide is refused once made, before anything else uses it")
    func pixelDecidedOutputRefused() throws {
        let image = Pattern.photo(width: 40, height: 30)
        #expect(try WidthDoubling().applyToEveryFrame(of: image, maxPixels: 2_400).size == PixelSize(width: 80, height: 30))
        #expect {
            try WidthDoubling().applyToEveryFrame(of: image, maxPixels: 2_399)
        } throws: { error in
            "\(error)" == "invalid double-width output '80×30 (2400 pixels)': expected at most 2399 pixels (max-pixels)"
        }
    }

    @Test("every frame of an animation counts, as in decoding")
    func framesCount() throws {
        let frame = Pattern.photo(width: 10, height: 10)
        var animated = frame
        animated.animation = try Animation(
            loopCount: 0, timings: Array(repeating: FrameTiming(delay: 50), count: 4),
            laterFrames: Array(repeating: frame, count: 3), size: frame.size)
        let pad = try PadFilter(width: 20, height: 10)
        #expect(try pad.applyToEveryFrame(of: animated, maxPixels: 800).frameCount == 4)
        #expect {
            try pad.applyToEveryFrame(of: animated, maxPixels: 799)
        } throws: { error in
            "\(error)" == "invalid pad output '4 frames of 20×10 (800 pixels)': expected at most 799 pixels (max-pixels)"
        }
    }

    @Test("a chain is checked step by step from the source's size, up to the first step the pixels decide")
    func chainsBeforeDecoding() throws {
        let source = PixelSize(width: 24, height: 16)
        let grow = try ExtendFilter(top: 0, right: 1_000, bottom: 0, left: 0)
        let shrinkThenGrow = FilterChain([try AspectFitFilter(width: 12), grow])
        #expect {
            try shrinkThenGrow.checkOutputSizes(forSourceSize: source, maxPixels: 8_095)
        } throws: { error in
            "\(error)" == "invalid extend output '1012×8 (8096 pixels)': expected at most 8095 pixels (max-pixels)"
        }
        try shrinkThenGrow.checkOutputSizes(forSourceSize: source, maxPixels: 8_096)
        // After trim nothing is known: the renderers check the later filters as they run.
        let trim = try #require(StandardFilters.schemas.first { $0.name == "trim" }).makeFilter([])
        try FilterChain([trim, grow]).checkOutputSizes(forSourceSize: source, maxPixels: 10)
        // A limit given in whole tenths of a megapixel reads in megapixels.
        #expect {
            try FilterChain([try AspectFitFilter(width: 3_000)]).checkOutputSizes(forSourceSize: source, maxPixels: 2_500_000)
        } throws: { error in
            "\(error)" == "invalid aspect-fit output '3000×2000 (6 megapixels)': expected at most 2.5 megapixels (max-pixels)"
        }
    }
}
