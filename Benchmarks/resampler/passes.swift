// Per-pass timings (compiled into the benchmark module, so it sees the internals).
import DarkroomCore
import Foundation

func benchmarkPasses(sourceWidth sw: Int, sourceHeight sh: Int, width dw: Int, height dh: Int, kernel: ResamplingKernel) {
    let source = photo(width: sw, height: sh, alpha: false)
    let h = AxisWeights(kernel: kernel, sourceLength: sw, destinationLength: dw)
    let v = AxisWeights(kernel: kernel, sourceLength: sh, destinationLength: dh)
    let toI16 = PassRounding(from: UInt8.self, to: Int16.self, lower: -32768, upper: 32767)
    let fromI16 = PassRounding(from: Int16.self, to: UInt8.self, lower: 0, upper: 255)
    let big = UnsafeMutablePointer<Int16>.allocate(capacity: max(sw * dh, sh * dw) * 4)
    let out = UnsafeMutablePointer<UInt8>.allocate(capacity: dw * dh * 4)
    source.pixels.withUnsafeBufferPointer { src in
        let s = src.baseAddress!
        let vFirst = best(7) { resampleVertically(source: s, destination: big, width: sw, weights: v, rows: 0..<dh, rounding: toI16) }
        let hSecond = best(7) { resampleHorizontally(source: big, destination: out, weights: h, rows: 0..<dh, rounding: fromI16) }
        let hFirst = best(7) { resampleHorizontally(source: s, destination: big, weights: h, rows: 0..<sh, rounding: toI16) }
        let vSecond = best(7) { resampleVertically(source: big, destination: out, width: dw, weights: v, rows: 0..<dh, rounding: fromI16) }
        let vTaps = Double(sw) * Double(v.totalTaps), hTaps = Double(sh) * Double(h.totalTaps)
        let hTaps2 = Double(dh) * Double(h.totalTaps), vTaps2 = Double(dw) * Double(v.totalTaps)
        print(String(format: "%dx%d -> %dx%d %@", sw, sh, dw, dh, kernel.rawValue))
        print(String(format: "  V first %.2f ms (%.2f ns/px-tap), then H %.2f ms (%.2f ns/px-tap)",
                     vFirst * 1e3, vFirst / vTaps * 1e9, hSecond * 1e3, hSecond / hTaps2 * 1e9))
        print(String(format: "  H first %.2f ms (%.2f ns/px-tap), then V %.2f ms (%.2f ns/px-tap)",
                     hFirst * 1e3, hFirst / hTaps * 1e9, vSecond * 1e3, vSecond / vTaps2 * 1e9))
        let plan = ResamplingPlan(source: source.size, destination: PixelSize(width: dw, height: dh), kernel: kernel, premultiplies: false)
        print("  plan: \(plan.verticalFirst ? "vertical" : "horizontal") first")
    }
    big.deallocate(); out.deallocate()
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
