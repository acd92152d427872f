// Resampler micro-benchmark: see README.md for the command.
import DarkroomCore
import Foundation

// MARK: - Test images

func photo(width: Int, height: Int, alpha: Bool) -> Image {
    Image(width: width, height: height, hasAlpha: alpha) { p in
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                let ripple = (sin(Double(x) * 0.05) * cos(Double(y) * 0.07) + 1) * 40
                p[i] = UInt8(min(255, fx * 200 + ripple))
                p[i + 1] = UInt8(min(255, fy * 200 + ripple / 2))
                p[i + 2] = UInt8(min(255, (1 - fx) * 150 + ripple))
                p[i + 3] = alpha ? UInt8((x ^ y) & 255) : 255
            }
        }
    }
}

/// PSNR over RGB, as in DarkroomTestSupport.
func psnr(_ a: Image, _ b: Image) -> Double {
    var sum = 0.0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
        for c in 0..<3 {
            let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
            sum += d * d
        }
    }
    let mse = sum / Double(a.width * a.height * 3)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

// MARK: - Timing

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Best of `repeats` runs (the machine is shared).
func best(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<repeats { times.append(try seconds(body)) }
    return times.min()!
}

let cases: [(String, Int, Int, Int, Int)] = [
    ("2560x1600 -> 256x160", 2560, 1600, 256, 160),
    ("5120x2880 -> 512x288", 5120, 2880, 512, 288),
    ("1280x800 -> 2560x1600 (2x up)", 1280, 800, 2560, 1600),
]
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "alpha" { benchmarkAlphaConversions(width: 2560, height: 1600); exit(0) }
if arguments.first == "compare", arguments.count >= 7 {
    // compare RAW.rgba W H TW TH OTHER.rgba...: PSNR of our Lanczos3 against other resizes.
    let w = Int(arguments[2])!, h = Int(arguments[3])!, tw = Int(arguments[4])!, th = Int(arguments[5])!
    let pixels = [UInt8](FileManager.default.contents(atPath: arguments[1])!)
    let source = try Image(width: w, height: h, pixels: pixels, hasAlpha: false)
    let ours = try Resampler.resize(source, to: PixelSize(width: tw, height: th))
    for other in arguments[6...] {
        let theirs = try Image(width: tw, height: th, pixels: [UInt8](FileManager.default.contents(atPath: other)!),
                               hasAlpha: false)
        print(String(format: "PSNR(ours, %@) = %.2f dB", other, psnr(ours, theirs)))
    }
    exit(0)
}
if arguments.first == "float" { benchmarkFloat(); benchmarkHybrid(); exit(0) }
if arguments.first == "weights" { benchmarkWeights(); exit(0) }
if arguments.first == "repeat", arguments.count == 7 {
    // repeat W H TW TH KERNEL ALPHA(0/1): 30 resizes of one case, for a profiler.
    let source = photo(width: Int(arguments[1])!, height: Int(arguments[2])!, alpha: arguments[6] == "1")
    let size = PixelSize(width: Int(arguments[3])!, height: Int(arguments[4])!)
    let kernel = ResamplingKernel(rawValue: arguments[5])!
    let t = try best(30) { _ = try Resampler.resize(source, to: size, kernel: kernel) }
    print(String(format: "best of 30: %.2f ms", t * 1e3))
    exit(0)
}
if arguments.first == "orders" {
    let extra: [(String, Int, Int, Int, Int)] = [("", 2560, 1600, 40, 1500), ("", 1600, 2560, 1500, 40)]
    for (_, sw, sh, dw, dh) in cases + extra {
        for alpha in [false, true] {
            benchmarkOrders(sourceWidth: sw, sourceHeight: sh, width: dw, height: dh, kernel: .lanczos3, alpha: alpha)
        }
    }
    exit(0)
}
let kernels: [ResamplingKernel] = arguments.isEmpty
    ? [.lanczos3, .bilinear] : arguments.compactMap(ResamplingKernel.init(rawValue:))

print("case | kernel | alpha | ms | input Mpx/s | output Mpx/s")
for (name, sw, sh, dw, dh) in cases {
    for alpha in [false, true] {
        let source = photo(width: sw, height: sh, alpha: alpha)
        for kernel in kernels {
            var sink = 0
            let t = try best(5) {
                let out = try Resampler.resize(source, to: PixelSize(width: dw, height: dh), kernel: kernel)
                sink &+= Int(out.pixels[out.pixels.count / 2])
            }
            let inMP = Double(sw * sh) / 1e6 / t, outMP = Double(dw * dh) / 1e6 / t
            print(String(format: "%@ | %@ | %@ | %.1f | %.0f | %.1f", name, kernel.rawValue, alpha ? "yes" : "no",
                         t * 1000, inMP, outMP) + (sink == -1 ? "!" : ""))
        }
    }
}
