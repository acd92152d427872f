// Pass-order and alpha-conversion timings (compiled into the benchmark module, so it
// sees the internals). Single-threaded, to compare the work itself.
import DarkroomCore
import Foundation

/// Times both pass orders of a resize on one thread and shows which one the plan picks.
func benchmarkOrders(sourceWidth sw: Int, sourceHeight sh: Int, width dw: Int, height dh: Int,
                     kernel: ResamplingKernel, alpha: Bool) {
    let source = photo(width: sw, height: sh, alpha: alpha)
    let from = source.size, to = PixelSize(width: dw, height: dh)
    let output = UnsafeMutablePointer<UInt8>.allocate(capacity: dw * dh * 4)
    defer { output.deallocate() }
    var times: [Bool: Double] = [:]
    source.pixels.withUnsafeBufferPointer { src in
        for verticalFirst in [true, false] {
            let plan = ResamplingPlan(source: from, destination: to, kernel: kernel, premultiplies: alpha,
                                      parallelism: .serial, verticalFirst: verticalFirst)
            times[verticalFirst] = best(5) { plan.run(source: src.baseAddress!, destination: output) }
        }
    }
    let chosen = ResamplingPlan(source: from, destination: to, kernel: kernel, premultiplies: alpha)
    print(String(format: "%@ -> %@ %@ alpha=%@: vertical first %.2f ms, horizontal first %.2f ms; plan picks %@",
                 from.description, to.description, kernel.rawValue, alpha ? "yes" : "no",
                 times[true]! * 1e3, times[false]! * 1e3, chosen.verticalFirst ? "vertical" : "horizontal"))
}

func benchmarkAlphaConversions(width: Int, height: Int) {
    let source = photo(width: width, height: height, alpha: true)
    let count = width * height
    let premultiplied = UnsafeMutablePointer<Int16>.allocate(capacity: count * 4)
    let back = UnsafeMutablePointer<UInt8>.allocate(capacity: count * 4)
    source.pixels.withUnsafeBufferPointer { src in
        let pre = best(7) { premultiplyForResampling(src.baseAddress!, into: premultiplied, pixelCount: count) }
        let un = best(7) { unpremultiplyAfterResampling(premultiplied, into: back, pixelCount: count) }
        print(String(format: "%dx%d premultiply %.2f ms (%.2f ns/px), unpremultiply %.2f ms (%.2f ns/px)",
                     width, height, pre * 1e3, pre / Double(count) * 1e9, un * 1e3, un / Double(count) * 1e9))
    }
    premultiplied.deallocate(); back.deallocate()
}

/// Time to precompute the weights of one axis.
func benchmarkWeights() {
    for (from, to) in [(2560, 256), (5120, 512), (320, 256), (1280, 2560)] {
        for kernel in [ResamplingKernel.lanczos3, .bilinear] {
            var taps = 0
            let t = best(7) { taps &+= AxisWeights(kernel: kernel, sourceLength: from, destinationLength: to).totalTaps }
            print(String(format: "weights %d -> %d %@: %.3f ms (%d taps)", from, to, kernel.rawValue, t * 1e3, taps / 7))
        }
    }
}
