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
if arguments.first == "compare", arguments.count >= 8 {
    // compare RAW.rgba W H TW TH KERNEL OTHER.rgba...: PSNR of our resize against other resizes.
    let w = Int(arguments[2])!, h = Int(arguments[3])!, tw = Int(arguments[4])!, th = Int(arguments[5])!
    let pixels = [UInt8](FileManager.default.contents(atPath: arguments[1])!)
    let source = try Image(width: w, height: h, pixels: pixels, hasAlpha: false)
    let kernel = ResamplingKernel(rawValue: arguments[6])!
    let ours = try Resampler.resize(source, to: PixelSize(width: tw, height: th), kernel: kernel)
    let t = try best(7) { _ = try Resampler.resize(source, to: PixelSize(width: tw, height: th), kernel: kernel) }
    let plan = ResamplingPlan(source: source.size, destination: ours.size, kernel: kernel, premultiplies: false,
                              parallelism: .serial)
    let serial = best(7) {
        _ = pixels.withUnsafeBufferPointer { src in
            Image(width: tw, height: th, hasAlpha: false) { plan.run(source: src.baseAddress!, destination: $0.baseAddress!) }
        }
    }
    print(String(format: "Darkroom %@ %dx%d -> %dx%d: %.2f ms (%d threads), %.2f ms (1 thread)", kernel.rawValue,
                 w, h, tw, th, t * 1e3, RowParallelism.processorCount, serial * 1e3))
    for other in arguments[7...] {
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
// The public API (all cores), or with `serial` the same plan on one thread (a separate
// run: idle dispatch workers from earlier parallel runs would disturb it).
let serialOnly = arguments.first == "serial"
if serialOnly { arguments.removeFirst() }
// Every kernel unless some are named (`run.sh lanczos3 bilinear`).
let kernels: [ResamplingKernel] = arguments.isEmpty
    ? ResamplingKernel.allCases : arguments.compactMap(ResamplingKernel.init(rawValue:))
let threads = serialOnly ? 1 : RowParallelism.processorCount
print("| case | kernel | alpha | ms (\(threads) thread\(threads == 1 ? "" : "s")) | input Mpx/s | output Mpx/s |")
print("|---|---|---|---|---|---|")
for (name, sw, sh, dw, dh) in cases {
    for alpha in [false, true] {
        let source = photo(width: sw, height: sh, alpha: alpha)
        let size = PixelSize(width: dw, height: dh)
        for kernel in kernels {
            var sink = 0
            let t = try best(7) {
                let out: Image
                if serialOnly {
                    // Plan included, as in the public call.
                    let plan = ResamplingPlan(source: source.size, destination: size, kernel: kernel,
                                              premultiplies: alpha, parallelism: .serial)
                    out = source.pixels.withUnsafeBufferPointer { src in
                        Image(width: dw, height: dh, hasAlpha: alpha) {
                            plan.run(source: src.baseAddress!, destination: $0.baseAddress!)
                        }
                    }
                } else {
                    out = try Resampler.resize(source, to: size, kernel: kernel)
                }
                sink &+= Int(out.pixels[out.pixels.count / 2])
            }
            let pixelsIn = Double(sw * sh) / 1e6, pixelsOut = Double(dw * dh) / 1e6
            print(String(format: "| %@ | %@ | %@ | %.1f | %.0f | %.1f |", name, kernel.rawValue,
                         alpha ? "yes" : "no", t * 1000, pixelsIn / t, pixelsOut / t) + (sink == -1 ? "!" : ""))
        }
    }
}
