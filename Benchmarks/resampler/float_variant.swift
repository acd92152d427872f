// A Float version of the two passes, to compare with the fixed-point engine
// (`resampler-bench float`). Same weights (as Float), same loop shapes (four rows per
// horizontal step, 32 channels per vertical step), a Float intermediate.
import DarkroomCore
import Foundation

/// Vertical pass, bytes in, Float intermediate out.
func floatVertical(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<Float>,
                   width: Int, weights: AxisWeights, floatWeights: [Float]) {
    let rowLength = width * 4
    floatWeights.withUnsafeBufferPointer { fw in
        for y in 0..<weights.destinationLength {
            let first = source + Int(weights.starts[y]) * rowLength
            let count = Int(weights.counts[y])
            let w = fw.baseAddress! + y * weights.stride
            var x = 0
            while x + 16 <= rowLength {
                var a0 = SIMD4<Float>(), a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), a3 = SIMD4<Float>()
                var p = first + x
                for k in 0..<count {
                    let wk = SIMD4<Float>(repeating: w[k])
                    let v = UInt8.load16(p, 0)
                    a0 += SIMD4<Float>(v.lowHalf.lowHalf) * wk
                    a1 += SIMD4<Float>(v.lowHalf.highHalf) * wk
                    a2 += SIMD4<Float>(v.highHalf.lowHalf) * wk
                    a3 += SIMD4<Float>(v.highHalf.highHalf) * wk
                    p += rowLength
                }
                let d = destination + y * rowLength + x
                UnsafeMutableRawPointer(d).storeBytes(of: a0, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(d + 4).storeBytes(of: a1, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(d + 8).storeBytes(of: a2, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(d + 12).storeBytes(of: a3, as: SIMD4<Float>.self)
                x += 16
            }
            while x < rowLength {
                var acc = SIMD4<Float>()
                var p = first + x
                for k in 0..<count {
                    acc += SIMD4<Float>(UInt8.load4(p, 0)) * SIMD4(repeating: w[k])
                    p += rowLength
                }
                UnsafeMutableRawPointer(destination + y * rowLength + x).storeBytes(of: acc, as: SIMD4<Float>.self)
                x += 4
            }
        }
    }
}

/// Horizontal pass, Float intermediate in, bytes out (rounded, clamped).
func floatHorizontal(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<UInt8>,
                     rows: Int, weights: AxisWeights, floatWeights: [Float]) {
    let sourceRowLength = weights.sourceLength * 4, outputWidth = weights.destinationLength
    let zero = SIMD4<Int32>(repeating: 0), full = SIMD4<Int32>(repeating: 255)
    @inline(__always) func load(_ p: UnsafePointer<Float>, _ offset: Int) -> SIMD4<Float> {
        UnsafeRawPointer(p + offset).loadUnaligned(as: SIMD4<Float>.self)
    }
    @inline(__always) func finish(_ v: SIMD4<Float>) -> SIMD4<Int32> {
        roundedToIntegers(v.replacing(with: 0, where: v .< 0)).clamped(lowerBound: zero, upperBound: full)
    }
    floatWeights.withUnsafeBufferPointer { fw in
        var row = 0
        while row + 4 <= rows {
            for x in 0..<outputWidth {
                var p = source + row * sourceRowLength + Int(weights.starts[x]) * 4
                let w = fw.baseAddress! + x * weights.stride
                var a0 = SIMD4<Float>(), a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), a3 = SIMD4<Float>()
                for k in 0..<Int(weights.counts[x]) {
                    let wk = SIMD4<Float>(repeating: w[k])
                    a0 += load(p, 0) * wk
                    a1 += load(p, sourceRowLength) * wk
                    a2 += load(p, 2 * sourceRowLength) * wk
                    a3 += load(p, 3 * sourceRowLength) * wk
                    p += 4
                }
                let d = destination + row * outputWidth * 4 + x * 4, r = outputWidth * 4
                UInt8.store4(finish(a0), d, 0)
                UInt8.store4(finish(a1), d, r)
                UInt8.store4(finish(a2), d, 2 * r)
                UInt8.store4(finish(a3), d, 3 * r)
            }
            row += 4
        }
        precondition(row == rows, "the comparison uses heights divisible by 4")
    }
}

/// Times the fixed-point engine against the Float variant, one thread, opaque, vertical first.
func benchmarkFloat() {
    for (sw, sh, dw, dh) in [(2560, 1600, 256, 160), (1280, 800, 2560, 1600)] {
        let source = photo(width: sw, height: sh, alpha: false)
        let h = AxisWeights(kernel: .lanczos3, sourceLength: sw, destinationLength: dw)
        let v = AxisWeights(kernel: .lanczos3, sourceLength: sh, destinationLength: dh)
        let hf = h.weights.map { Float($0) / Float(AxisWeights.one) }
        let vf = v.weights.map { Float($0) / Float(AxisWeights.one) }
        let intermediate = UnsafeMutablePointer<Float>.allocate(capacity: sw * dh * 4)
        let floatOut = UnsafeMutablePointer<UInt8>.allocate(capacity: dw * dh * 4)
        let fixedOut = UnsafeMutablePointer<UInt8>.allocate(capacity: dw * dh * 4)
        let plan = ResamplingPlan(source: source.size, destination: PixelSize(width: dw, height: dh), kernel: .lanczos3,
                                  premultiplies: false, parallelism: .serial, verticalFirst: true)
        source.pixels.withUnsafeBufferPointer { src in
            let s = src.baseAddress!
            let tFloat = best(7) {
                floatVertical(s, intermediate, width: sw, weights: v, floatWeights: vf)
                floatHorizontal(intermediate, floatOut, rows: dh, weights: h, floatWeights: hf)
            }
            let tFixed = best(7) { plan.run(source: s, destination: fixedOut) }
            let a = Image(width: dw, height: dh, hasAlpha: false) { $0.baseAddress!.update(from: floatOut, count: dw * dh * 4) }
            let b = Image(width: dw, height: dh, hasAlpha: false) { $0.baseAddress!.update(from: fixedOut, count: dw * dh * 4) }
            print(String(format: "%dx%d -> %dx%d lanczos3, 1 thread: fixed-point %.2f ms, Float %.2f ms; PSNR between them %.1f dB",
                         sw, sh, dw, dh, tFixed * 1e3, tFloat * 1e3, psnr(a, b)))
        }
        intermediate.deallocate(); floatOut.deallocate(); fixedOut.deallocate()
    }
}

/// The fixed-point vertical pass writing a Float intermediate (in 0…255 units).
func fixedVerticalToFloat(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<Float>,
                          width: Int, weights: AxisWeights) {
    let rowLength = width * 4
    let unit = SIMD4<Float>(repeating: 1 / Float(AxisWeights.one))
    weights.weights.withUnsafeBufferPointer { allWeights in
        for y in 0..<weights.destinationLength {
            let first = source + Int(weights.starts[y]) * rowLength
            let count = Int(weights.counts[y])
            let w = allWeights.baseAddress! + y * weights.stride
            var x = 0
            while x + 32 <= rowLength {
                var left = SIMD16<Int32>(), right = SIMD16<Int32>()
                var p = first + x
                for k in 0..<count {
                    let weight = SIMD16(repeating: Int32(w[k]))
                    left &+= UInt8.load16(p, 0) &* weight
                    right &+= UInt8.load16(p, 16) &* weight
                    p += rowLength
                }
                let d = UnsafeMutableRawPointer(destination + y * rowLength + x)
                d.storeBytes(of: SIMD4<Float>(left.lowHalf.lowHalf) * unit, toByteOffset: 0, as: SIMD4<Float>.self)
                d.storeBytes(of: SIMD4<Float>(left.lowHalf.highHalf) * unit, toByteOffset: 16, as: SIMD4<Float>.self)
                d.storeBytes(of: SIMD4<Float>(left.highHalf.lowHalf) * unit, toByteOffset: 32, as: SIMD4<Float>.self)
                d.storeBytes(of: SIMD4<Float>(left.highHalf.highHalf) * unit, toByteOffset: 48, as: SIMD4<Float>.self)
                d.storeBytes(of: SIMD4<Float>(right.lowHalf.lowHalf) * unit, toByteOffset: 64, as: SIMD4<Float>.self)
                d.storeBytes(of: SIMD4<Float>(right.lowHalf.highHalf) * unit, toByteOffset: 80, as: SIMD4<Float>.self)
                d.storeBytes(of: SIMD4<Float>(right.highHalf.lowHalf) * unit, toByteOffset: 96, as: SIMD4<Float>.self)
                d.storeBytes(of: SIMD4<Float>(right.highHalf.highHalf) * unit, toByteOffset: 112, as: SIMD4<Float>.self)
                x += 32
            }
            while x < rowLength {
                var acc = SIMD4<Int32>()
                var p = first + x
                for k in 0..<count {
                    acc &+= UInt8.load4(p, 0) &* SIMD4(repeating: Int32(w[k]))
                    p += rowLength
                }
                UnsafeMutableRawPointer(destination + y * rowLength + x).storeBytes(
                    of: SIMD4<Float>(acc) * unit, as: SIMD4<Float>.self)
                x += 4
            }
        }
    }
}

func benchmarkHybrid() {
    for (sw, sh, dw, dh) in [(2560, 1600, 256, 160), (1280, 800, 2560, 1600)] {
        let source = photo(width: sw, height: sh, alpha: false)
        let h = AxisWeights(kernel: .lanczos3, sourceLength: sw, destinationLength: dw)
        let v = AxisWeights(kernel: .lanczos3, sourceLength: sh, destinationLength: dh)
        let hf = h.weights.map { Float($0) / Float(AxisWeights.one) }
        let intermediate = UnsafeMutablePointer<Float>.allocate(capacity: sw * dh * 4)
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: dw * dh * 4)
        source.pixels.withUnsafeBufferPointer { src in
            let s = src.baseAddress!
            let tV = best(7) { fixedVerticalToFloat(s, intermediate, width: sw, weights: v) }
            let tH = best(7) { floatHorizontal(intermediate, out, rows: dh, weights: h, floatWeights: hf) }
            print(String(format: "%dx%d -> %dx%d hybrid: fixed vertical to Float %.2f ms + Float horizontal %.2f ms = %.2f ms",
                         sw, sh, dw, dh, tV * 1e3, tH * 1e3, (tV + tH) * 1e3))
        }
        intermediate.deallocate(); out.deallocate()
    }
}
