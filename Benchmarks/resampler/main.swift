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
if arguments.first == "passes" {
    for (_, sw, sh, dw, dh) in cases {
        for kernel in [ResamplingKernel.lanczos3, .bilinear] {
            benchmarkPasses(sourceWidth: sw, sourceHeight: sh, width: dw, height: dh, kernel: kernel)
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
