import DarkroomCore
import DarkroomTestSupport
import Testing

@testable import DarkroomFilters

@Suite("Threads and pass order do not change what a resize produces")
struct ResamplingPlanTests {
    static let cases: [(from: PixelSize, to: PixelSize)] = [
        (PixelSize(width: 160, height: 120), PixelSize(width: 37, height: 29)),  // shrink both
        (PixelSize(width: 40, height: 30), PixelSize(width: 97, height: 71)),  // enlarge both
        (PixelSize(width: 160, height: 120), PixelSize(width: 160, height: 45)),  // height only
        (PixelSize(width: 160, height: 120), PixelSize(width: 61, height: 120)),  // width only
    ]

    /// Runs `plan` on `image` and wraps the result.
    static func resize(_ image: Image, _ plan: ResamplingPlan) -> Image {
        image.pixels.withUnsafeBufferPointer { source in
            Image(width: plan.destinationSize.width, height: plan.destinationSize.height, hasAlpha: image.hasAlpha) {
                plan.run(source: source.baseAddress!, destination: $0.baseAddress!)
            }
        }
    }

    static func image(_ size: PixelSize, alpha: Bool) -> Image {
        let photo = Pattern.photo(width: size.width, height: size.height)
        guard alpha else { return photo }
        var pixels = photo.pixels
        for i in Swift.stride(from: 3, to: pixels.count, by: 4) { pixels[i] = UInt8((i / 4 * 37) % 256) }
        return try! Image(width: size.width, height: size.height, pixels: pixels, hasAlpha: true)
    }

    @Test("bands on several threads give exactly the single-thread result", arguments: [false, true])
    func threadsDoNotMatter(alpha: Bool) {
        let eager = RowParallelism(threads: 3, minimumWork: 0)
        for (from, to) in Self.cases {
            let source = Self.image(from, alpha: alpha)
            for verticalFirst in [false, true] {
                let serial = ResamplingPlan(
                    source: from, destination: to, kernel: .lanczos3, premultiplies: alpha,
                    parallelism: .serial, verticalFirst: verticalFirst)
                let parallel = ResamplingPlan(
                    source: from, destination: to, kernel: .lanczos3, premultiplies: alpha,
                    parallelism: eager, verticalFirst: verticalFirst)
                #expect(Self.resize(source, serial) == Self.resize(source, parallel), "\(from) → \(to)")
            }
        }
    }

    @Test("vertical-first and horizontal-first agree within one level", arguments: [false, true])
    func orderBarelyMatters(alpha: Bool) {
        for (from, to) in Self.cases.prefix(2) {
            let source = Self.image(from, alpha: alpha)
            let results = [false, true].map { verticalFirst in
                Self.resize(source, ResamplingPlan(
                    source: from, destination: to, kernel: .lanczos3, premultiplies: alpha,
                    parallelism: .serial, verticalFirst: verticalFirst))
            }
            // Compare what is visible: colours over black (a faint pixel's straight colour
            // magnifies one unit of premultiplied rounding by 255 / alpha), and alpha.
            let black = RGBA(r: 0, g: 0, b: 0)
            #expect(ImageComparison.maxAbsoluteError(
                results[0].flattened(over: black), results[1].flattened(over: black)) <= 1, "\(from) → \(to)")
            let alphaDifference = zip(results[0].pixels, results[1].pixels).enumerated()
                .filter { $0.offset % 4 == 3 }.map { abs(Int($0.element.0) - Int($0.element.1)) }.max() ?? 0
            #expect(alphaDifference <= 1)
        }
    }

    @Test("the cheaper order is chosen: shrinking opaque images filters columns first")
    func orderChoice() {
        let shrink = ResamplingPlan(
            source: PixelSize(width: 2560, height: 1600), destination: PixelSize(width: 256, height: 160),
            kernel: .lanczos3, premultiplies: false)
        #expect(shrink.verticalFirst)
        // A tall, narrow target: the vertical pass over all 2560 source columns costs more.
        let narrow = ResamplingPlan(
            source: PixelSize(width: 2560, height: 1600), destination: PixelSize(width: 40, height: 1500),
            kernel: .lanczos3, premultiplies: false)
        #expect(!narrow.verticalFirst)
    }
}
