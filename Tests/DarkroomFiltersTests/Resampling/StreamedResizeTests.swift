import DarkroomCore
import DarkroomTestSupport
import Testing

@testable import DarkroomFilters

@Suite("A two-axis resize streams its intermediate rows and gives exactly the whole-buffer result")
struct StreamedResizeTests {
    static let cases: [(from: PixelSize, to: PixelSize)] = [
        (PixelSize(width: 600, height: 420), PixelSize(width: 23, height: 17)),  // a large shrink: the window slides
        (PixelSize(width: 160, height: 120), PixelSize(width: 37, height: 29)),
        (PixelSize(width: 40, height: 30), PixelSize(width: 97, height: 71)),  // enlarge
        (PixelSize(width: 90, height: 1100), PixelSize(width: 64, height: 45)),  // tall: many rows per output
        (PixelSize(width: 333, height: 211), PixelSize(width: 100, height: 207)),  // barely shrinks vertically
        (PixelSize(width: 50, height: 300), PixelSize(width: 40, height: 1)),  // one row reads every row
    ]

    // MARK: - The passes with whole intermediates

    /// The two passes of `plan` run over a whole intermediate image, as a resize did before
    /// streaming: the reference.
    static func wholeBufferResize(_ image: Image, _ plan: ResamplingPlan) -> [UInt8] {
        let h = plan.horizontal!, v = plan.vertical!
        let (from, to) = (plan.sourceSize, plan.destinationSize)
        // Premultiplied values are Int16 with their own fraction bits, and are un-premultiplied at the end.
        let scale = plan.premultiplies
            ? ResamplingPlan.intermediateScale(of: Int16.self) : ResamplingPlan.intermediateScale(of: UInt8.self)
        var output = [UInt8](repeating: 0, count: to.pixelCount * 4)
        var intermediate = [Float](
            repeating: 0, count: plan.verticalFirst ? from.width * to.height * 4 : to.width * from.height * 4)
        var premultiplied = [Int16](repeating: 0, count: plan.premultiplies ? from.pixelCount * 4 : 0)
        image.pixels.withUnsafeBufferPointer { pixels in
            let source = pixels.baseAddress!
            let floats = intermediate.withUnsafeMutableBufferPointer { $0.baseAddress! }
            let out = output.withUnsafeMutableBufferPointer { $0.baseAddress! }
            func secondPass<Output: FloatPixelOutput>(_: Output.Type) {
                if plan.verticalFirst {
                    resampleHorizontallyFromFloat(
                        source: floats, destination: out, weights: h, floatWeights: h.floatWeights(scaledBy: scale),
                        rows: 0..<to.height, output: Output.self)
                } else {
                    resampleVerticallyFromFloat(
                        source: floats, destination: out, width: to.width, weights: v,
                        floatWeights: v.floatWeights(scaledBy: scale), rows: 0..<to.height, output: Output.self)
                }
            }
            switch (plan.verticalFirst, plan.premultiplies) {
            case (true, true):
                let whole = premultiplied.withUnsafeMutableBufferPointer { $0.baseAddress! }
                premultiplyForResampling(source, into: whole, pixelCount: from.pixelCount)
                resampleVertically(
                    source: UnsafePointer(whole), destination: floats, width: from.width, weights: v,
                    rows: 0..<to.height, rounding: .unscaled)
            case (true, false):
                resampleVertically(
                    source: source, destination: floats, width: from.width, weights: v, rows: 0..<to.height,
                    rounding: .unscaled)
            case (false, true):
                resampleHorizontallyPremultiplying(
                    source: source, destination: floats, weights: h, rows: 0..<from.height, rounding: .unscaled)
            case (false, false):
                resampleHorizontally(
                    source: source, destination: floats, weights: h, rows: 0..<from.height, rounding: .unscaled)
            }
            if plan.premultiplies { secondPass(UnpremultipliedOutput.self) } else { secondPass(ClampedOutput.self) }
        }
        return output
    }

    /// How many bytes differ (arrays of equal length), so that a failure reads as a number.
    static func differingBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.count == b.count ? zip(a, b).filter { $0 != $1 }.count : max(a.count, b.count)
    }

    // MARK: - Tests

    @Test("both pass orders, with and without alpha, on one thread and on three", arguments: [false, true])
    func sameAsWholeBuffer(alpha: Bool) {
        let eager = RowParallelism(threads: 3, minimumWork: 0)
        for (from, to) in Self.cases {
            let source = ResamplingPlanTests.image(from, alpha: alpha)
            for verticalFirst in [false, true] {
                for parallelism in [RowParallelism.serial, eager] {
                    let plan = ResamplingPlan(
                        source: from, destination: to, kernel: .lanczos3, premultiplies: alpha,
                        parallelism: parallelism, verticalFirst: verticalFirst)
                    let streamed = ResamplingPlanTests.resize(source, plan).pixels
                    #expect(
                        Self.differingBytes(streamed, Self.wholeBufferResize(source, plan)) == 0,
                        "\(from) → \(to), vertical first: \(verticalFirst), threads: \(parallelism.threads)")
                }
            }
        }
    }

    @Test("each kernel's reach is covered, including the widest (Lanczos3 over a 27× shrink)")
    func everyKernel() {
        let from = PixelSize(width: 540, height: 270), to = PixelSize(width: 20, height: 10)
        let source = ResamplingPlanTests.image(from, alpha: false)
        for kernel in ResamplingKernel.allCases {
            for verticalFirst in [false, true] {
                let plan = ResamplingPlan(
                    source: from, destination: to, kernel: kernel, premultiplies: false, parallelism: .serial,
                    verticalFirst: verticalFirst)
                let streamed = ResamplingPlanTests.resize(source, plan).pixels
                #expect(Self.differingBytes(streamed, Self.wholeBufferResize(source, plan)) == 0, "\(kernel)")
            }
        }
    }
}
