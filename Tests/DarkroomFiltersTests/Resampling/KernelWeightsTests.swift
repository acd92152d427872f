import DarkroomCore
import DarkroomTestSupport
import Testing

@testable import DarkroomFilters

@Suite("Kernels have their shapes and precomputed weights sum to one")
struct KernelWeightsTests {
    @Test("interpolating kernels are 1 at 0 and 0 at the other integers")
    func interpolatingKernels() {
        for kernel in [ResamplingKernel.lanczos3, .lanczos2, .catmullRom, .bilinear] {
            #expect(abs(kernel.weight(at: 0) - 1) < 1e-12, "\(kernel)")
            for x in [-2.0, -1, 1, 2] {
                #expect(abs(kernel.weight(at: x)) < 1e-12, "\(kernel) at \(x)")
            }
        }
        // Mitchell is not interpolating: 8/9 at 0, 1/18 at ±1.
        #expect(abs(ResamplingKernel.mitchell.weight(at: 0) - 8.0 / 9.0) < 1e-12)
        #expect(abs(ResamplingKernel.mitchell.weight(at: 1) - 1.0 / 18.0) < 1e-12)
    }

    @Test("every kernel is zero at and beyond its support", arguments: ResamplingKernel.allCases)
    func zeroOutsideSupport(kernel: ResamplingKernel) {
        for x in [kernel.support, kernel.support + 0.01, kernel.support + 1, 100] {
            #expect(kernel.weight(at: x) == 0, "at \(x)")
            #expect(kernel.weight(at: -x - 0.01) == 0, "at \(-x - 0.01)")
        }
        #expect(kernel.weight(at: kernel.support * 0.2) > 0)
    }

    @Test("Lanczos has negative lobes; the box is half-open")
    func lobesAndBox() {
        #expect(ResamplingKernel.lanczos3.weight(at: 1.5) < -0.1)
        #expect(ResamplingKernel.lanczos2.weight(at: 1.5) < -0.05)
        #expect(ResamplingKernel.box.weight(at: -0.5) == 1)
        #expect(ResamplingKernel.box.weight(at: 0.5) == 0)
    }

    @Test("weights along a line of taps equal the kernel's values", arguments: ResamplingKernel.allCases)
    func lineOfTaps(kernel: ResamplingKernel) {
        // Steps as when shrinking 7.3× (the kernel stretched), enlarging, and 1:1.
        for (start, step, count) in [(-3.1, 1 / 7.3, 46), (-2.75, 1.0, 6), (-2.0, 1.0, 5), (-1.2, 0.25, 11)] {
            var values = [Double](repeating: .nan, count: count)
            kernel.fillWeights(from: start, step: step, count: count, into: &values)
            for k in 0..<count {
                let x = start + Double(k) * step
                #expect(abs(values[k] - kernel.weight(at: x)) < 1e-12, "x = \(x): \(values[k])")
            }
        }
    }

    @Test("fixed-point weights of every output sum to exactly one", arguments: ResamplingKernel.allCases)
    func weightsSumToOne(kernel: ResamplingKernel) {
        for (from, to) in [(100, 7), (640, 160), (7, 100), (33, 32), (1, 5), (5, 1)] {
            let axis = AxisWeights(kernel: kernel, sourceLength: from, destinationLength: to)
            for i in 0..<to {
                let start = Int(axis.starts[i]), count = Int(axis.counts[i])
                #expect(start >= 0 && count >= 1 && start + count <= from, "\(from)→\(to) output \(i)")
                let sum = (0..<count).reduce(0) { $0 + Int(axis.weights[i * axis.stride + $1]) }
                #expect(sum == AxisWeights.one, "\(kernel) \(from)→\(to) output \(i)")
            }
        }
    }

    @Test("every quantised weight is within one unit of its exact value, even over 1000 taps")
    func quantisationError() {
        // 5000 → 5 with the box: 1000 taps of 16384 / 1000 = 16.384 units each.
        let axis = AxisWeights(kernel: .box, sourceLength: 5000, destinationLength: 5)
        for i in 0..<5 {
            #expect(axis.counts[i] == 1000)
            let weights = (0..<1000).map { axis.weights[i * axis.stride + $0] }
            #expect(weights.allSatisfy { $0 == 16 || $0 == 17 }, "output \(i)")
        }
    }

    @Test("shrinking stretches the kernel by the scale; enlarging does not")
    func tapCounts() {
        // 4× down: Lanczos3 spans 2·3·4 = 24 source pixels (minus zero end taps).
        let down = AxisWeights(kernel: .lanczos3, sourceLength: 400, destinationLength: 100)
        #expect(down.counts[50] >= 22 && down.counts[50] <= 24)
        // 3× up: the kernel's own 6 taps.
        let up = AxisWeights(kernel: .lanczos3, sourceLength: 100, destinationLength: 300)
        #expect(up.counts[150] >= 5 && up.counts[150] <= 6)
        // Box 2× down: exactly the two source pixels of each block.
        let box = AxisWeights(kernel: .box, sourceLength: 8, destinationLength: 4)
        for i in 0..<4 {
            let (start, weights) = box.realWeights(of: i)
            #expect(start == 2 * i && weights == [0.5, 0.5])
        }
    }

    @Test("edge outputs drop the taps outside the image and renormalise")
    func edges() {
        let axis = AxisWeights(kernel: .lanczos3, sourceLength: 400, destinationLength: 100)
        let (start, weights) = axis.realWeights(of: 0)
        #expect(start == 0)
        #expect(weights.count < Int(axis.counts[50]))
        #expect(abs(weights.reduce(0, +) - 1) < 1e-9)
    }
}

@Suite("a kernel is named the same way on the command line as in filter arguments")
struct KernelNameTests {
    @Test("filter-argument words and case names both name a kernel; every kernel has a word")
    func names() {
        #expect(ResamplingKernel(named: "catmull-rom") == .catmullRom)
        #expect(ResamplingKernel(named: "catmullRom") == .catmullRom)
        #expect(ResamplingKernel(named: "lanczos3") == .lanczos3)
        #expect(ResamplingKernel(named: "sinc") == nil)
        #expect(Set(ResamplingKernel.argumentNames.compactMap(ResamplingKernel.init(named:))) == Set(ResamplingKernel.allCases))
    }
}
