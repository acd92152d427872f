import Synchronization

// MARK: - LookupGrid

/// A lookup-table profile's whole transform to sRGB, sampled once on an even grid over the
/// device values (33³ nodes for RGB, 17⁴ for CMYK, as littleCMS does for 8-bit pixels) and
/// interpolated per pixel in fixed point: tetrahedrally for three channels, and for CMYK as
/// two tetrahedral lookups blended on the first channel.
///
/// Each node holds the encoded sRGB result in 16 bits (out-of-gamut colours clipped), so a
/// pixel costs a few table reads and integer multiply-adds whatever the profile's stages.
/// The device white's node is pure white (littleCMS's white-on-white fix-up).
struct LookupGrid: Sendable {
    /// 3 (RGB → RGB, alpha kept) or 4 (CMYK ink amounts → opaque RGB).
    let channels: Int
    let points: Int
    /// Node results, R G B and an unused lane, each 0…65535; the first channel varies slowest.
    private let nodes: [SIMD4<Int32>]
    /// Per 8-bit input value: the lower node's index along an axis, and the fraction past it (Q12).
    private let cells: [(index: Int, fraction: Int32)]

    // MARK: - Recently built grids

    /// The grids of the last few profiles: a batch of CMYK files from one workflow shares one
    /// profile, and building a CMYK grid costs tens of milliseconds.
    private static let recent = Mutex<[(ICCLookupPipeline, LookupGrid)]>([])
    private static let recentCapacity = 4

    /// The grid for `pipeline`, built or reused.
    static func make(_ pipeline: ICCLookupPipeline) -> LookupGrid {
        if let hit = recent.withLock({ $0.first { $0.0 == pipeline }?.1 }) { return hit }
        let grid = LookupGrid(pipeline)
        recent.withLock { entries in
            entries.removeAll { $0.0 == pipeline }
            entries.insert((pipeline, grid), at: 0)
            if entries.count > recentCapacity { entries.removeLast() }
        }
        return grid
    }

    // MARK: - Building

    init(_ pipeline: ICCLookupPipeline) {
        let channels = pipeline.inputChannels, points = channels == 4 ? 17 : 33
        (self.channels, self.points) = (channels, points)
        let count = (0..<channels).reduce(1) { product, _ in product * points }
        var nodes = [SIMD4<Int32>]()
        nodes.reserveCapacity(count)
        var device = SIMD4<Double>()
        for node in 0..<count {
            var rest = node
            for axis in (0..<channels).reversed() {
                device[axis] = Double(rest % points) / Double(points - 1)
                rest /= points
            }
            nodes.append(Self.encodedSRGB(pipeline.evaluate(device)))
        }
        // Device white (no ink; full RGB) becomes sRGB white exactly, as littleCMS fixes it up:
        // paper is white on screen, whatever tint the profile gives it.
        nodes[channels == 4 ? 0 : count - 1] = SIMD4(65535, 65535, 65535, 0)
        self.nodes = nodes
        let last = points - 1
        cells = (0..<256).map { value in
            let position = value * last * 4096 / 255  // Q12
            let index = min(position >> 12, last - 1)
            return (index, Int32(position - index * 4096))
        }
    }

    /// D50 XYZ → 16-bit encoded sRGB (relative colorimetric, clipped).
    static func encodedSRGB(_ xyz: SIMD3<Double>) -> SIMD4<Int32> {
        let m = toLinearSRGB
        let linear = SIMD3(
            m[0] * xyz.x + m[1] * xyz.y + m[2] * xyz.z, m[3] * xyz.x + m[4] * xyz.y + m[5] * xyz.z,
            m[6] * xyz.x + m[7] * xyz.y + m[8] * xyz.z)
        var result = SIMD4<Int32>(repeating: 0)
        for channel in 0..<3 {
            let l = linear[channel].isFinite ? min(max(linear[channel], 0), 1) : 0
            let encoded = SRGBConversion.encoded(linear: l)
            result[channel] = Int32((encoded * 65535).rounded())
        }
        return result
    }

    private static let toLinearSRGB = SRGBConversion.fromD50ToLinearSRGB.m

    /// A grey lookup profile as three 256-entry tables (grey value → each sRGB channel), which
    /// is its whole transform since a grey image has R = G = B; white stays white, as in the grid.
    static func greyTables(_ pipeline: ICCLookupPipeline) -> [UInt8] {
        (0..<3).flatMap { channel in
            (0..<256).map { value in
                guard value < 255 else { return UInt8(255) }
                let sixteen = encodedSRGB(pipeline.evaluate(SIMD4(Double(value) / 255, 0, 0, 0)))
                return UInt8(truncatingIfNeeded: eightBit(SIMD4(repeating: sixteen[channel]))[0])
            }
        }
    }

    // MARK: - Applying

    /// Converts every pixel of `pixels` (4 bytes each) in place.
    func apply(to pixels: UnsafeMutableBufferPointer<UInt8>) {
        nodes.withUnsafeBufferPointer { nodes in
            cells.withUnsafeBufferPointer { cells in
                var i = 0
                if channels == 3 {
                    while i < pixels.count {
                        let value = Self.tetrahedral(
                            nodes, base: 0, points: points, cells[Int(pixels[i])], cells[Int(pixels[i + 1])],
                            cells[Int(pixels[i + 2])])
                        Self.store(value, into: pixels, at: i)
                        i += 4
                    }
                } else {
                    let slab = points * points * points
                    while i < pixels.count {
                        let first = cells[Int(pixels[i])]
                        let y = cells[Int(pixels[i + 1])], z = cells[Int(pixels[i + 2])], w = cells[Int(pixels[i + 3])]
                        let base = first.index * slab
                        var value = Self.tetrahedral(nodes, base: base, points: points, y, z, w)
                        if first.fraction > 0 {
                            let upper = Self.tetrahedral(nodes, base: base + slab, points: points, y, z, w)
                            value = value &+ (((upper &- value) &* first.fraction &+ 2048) &>> 12)
                        }
                        Self.store(value, into: pixels, at: i)
                        pixels[i + 3] = 255
                        i += 4
                    }
                }
            }
        }
    }

    /// Writes a pixel's three 8-bit channels.
    @inline(__always)
    private static func store(_ value: SIMD4<Int32>, into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        let eight = eightBit(value)
        pixels[i] = UInt8(truncatingIfNeeded: eight[0])
        pixels[i + 1] = UInt8(truncatingIfNeeded: eight[1])
        pixels[i + 2] = UInt8(truncatingIfNeeded: eight[2])
    }

    /// 16-bit results → 8 bits, rounded: the same values as littleCMS's `FROM_16_TO_8`
    /// (checked for all 65,536 inputs), in Int32 lanes.
    @inline(__always)
    private static func eightBit(_ value: SIMD4<Int32>) -> SIMD4<Int32> {
        let v = value.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 65535))
        let t = v &* 255 &+ 32768
        return (t &+ (t &>> 16)) &>> 16
    }

    /// The 16-bit result inside the 3-D block at `base`: one of the six tetrahedra of the cell,
    /// picked by the order of the three fractions.
    @inline(__always)
    private static func tetrahedral(
        _ nodes: UnsafeBufferPointer<SIMD4<Int32>>, base: Int, points: Int,
        _ x: (index: Int, fraction: Int32), _ y: (index: Int, fraction: Int32), _ z: (index: Int, fraction: Int32)
    ) -> SIMD4<Int32> {
        let sx = points * points, sy = points
        let o = base + x.index * sx + y.index * sy + z.index
        let rx = x.fraction, ry = y.fraction, rz = z.fraction
        let c000 = nodes[o], c111 = nodes[o + sx + sy + 1]
        let sum: SIMD4<Int32>
        if rx >= ry {
            if ry >= rz {
                let c100 = nodes[o + sx], c110 = nodes[o + sx + sy]
                sum = (c100 &- c000) &* rx &+ (c110 &- c100) &* ry &+ (c111 &- c110) &* rz
            } else if rx >= rz {
                let c100 = nodes[o + sx], c101 = nodes[o + sx + 1]
                sum = (c100 &- c000) &* rx &+ (c101 &- c100) &* rz &+ (c111 &- c101) &* ry
            } else {
                let c001 = nodes[o + 1], c101 = nodes[o + sx + 1]
                sum = (c001 &- c000) &* rz &+ (c101 &- c001) &* rx &+ (c111 &- c101) &* ry
            }
        } else if rx >= rz {
            let c010 = nodes[o + sy], c110 = nodes[o + sx + sy]
            sum = (c010 &- c000) &* ry &+ (c110 &- c010) &* rx &+ (c111 &- c110) &* rz
        } else if ry >= rz {
            let c010 = nodes[o + sy], c011 = nodes[o + sy + 1]
            sum = (c010 &- c000) &* ry &+ (c011 &- c010) &* rz &+ (c111 &- c011) &* rx
        } else {
            let c001 = nodes[o + 1], c011 = nodes[o + sy + 1]
            sum = (c001 &- c000) &* rz &+ (c011 &- c001) &* ry &+ (c111 &- c011) &* rx
        }
        return c000 &+ ((sum &+ 2048) &>> 12)
    }
}
