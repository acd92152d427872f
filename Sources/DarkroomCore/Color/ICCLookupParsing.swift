// MARK: - Parsing an A2B0 element

extension ICCLookupPipeline {
    /// The most nodes a colour table may have (a 33⁴ CMYK table has 1.2 million; real
    /// profiles stay at or below 33 per channel).
    static let maximumTableNodes = 1 << 22

    /// Reads the `mft1`, `mft2` or `mAB ` element at `offset` (of at most `size` bytes) for a
    /// profile whose device space has `channels` channels and whose connection space is Lab
    /// (`lab`) or XYZ; `nil` when it is another type, has other channel counts or is cut short.
    static func parse(_ r: ByteReader, at offset: Int, size: Int, channels: Int, lab: Bool) -> ICCLookupPipeline? {
        guard size >= 32, offset >= 0, offset + size <= r.count, let inputs = r.u8(offset + 8), let outputs = r.u8(offset + 9),
            inputs == channels, outputs == 3, [1, 3, 4].contains(inputs)
        else { return nil }
        let element = ByteReader(UnsafeRawBufferPointer(rebasing: r.bytes[offset..<offset + size]))
        switch r.fourCC(offset) {
        case "mft1":
            guard lab else { return nil }  // 8-bit XYZ is not defined
            return parseLUT(element, inputs: inputs, wide: false, encoding: .lab8)
        case "mft2":
            return parseLUT(element, inputs: inputs, wide: true, encoding: lab ? .labLegacy16 : .xyz)
        case "mAB ":
            return parseAToB(element, inputs: inputs, encoding: lab ? .labV4 : .xyz)
        default:
            return nil
        }
    }

    // MARK: - lut8Type and lut16Type

    /// `mft1`/`mft2`: the 3×3 matrix at 12 applies to XYZ input only and is skipped.
    private static func parseLUT(_ r: ByteReader, inputs: Int, wide: Bool, encoding: Encoding) -> ICCLookupPipeline? {
        guard let points = r.u8(10), points >= 2 else { return nil }
        let inEntries = wide ? r.u16be(48) ?? 0 : 256, outEntries = wide ? r.u16be(50) ?? 0 : 256
        guard inEntries >= 2, outEntries >= 2 else { return nil }
        let width = wide ? 2 : 1
        var at = wide ? 52 : 48
        func samples(_ count: Int) -> [UInt16]? {
            guard count >= 0, at + count * width <= r.count else { return nil }
            var result = [UInt16]()
            result.reserveCapacity(count)
            for index in 0..<count {
                let position = at + index * width
                result.append(wide ? UInt16(r.u16be(position)!) : UInt16(r.u8(position)!) * 257)
            }
            at += count * width
            return result
        }
        var aCurves = [ToneCurve]()
        for _ in 0..<inputs {
            guard let table = samples(inEntries) else { return nil }
            aCurves.append(.sampled(table))
        }
        let gridPoints = Array(repeating: points, count: inputs)
        guard let nodes = nodeCount(gridPoints), let raw = samples(nodes * 3) else { return nil }
        let table = ColorTable(gridPoints: gridPoints, values: raw)
        var bCurves = [ToneCurve]()
        for _ in 0..<3 {
            guard let curve = samples(outEntries) else { return nil }
            bCurves.append(.sampled(curve))
        }
        return ICCLookupPipeline(
            inputChannels: inputs, aCurves: aCurves, table: table, mCurves: [], matrix: nil, bCurves: bCurves,
            encoding: encoding)
    }

    // MARK: - lutAToBType

    private static func parseAToB(_ r: ByteReader, inputs: Int, encoding: Encoding) -> ICCLookupPipeline? {
        guard let bOffset = r.u32be(12), let matrixOffset = r.u32be(16), let mOffset = r.u32be(20),
            let tableOffset = r.u32be(24), let aOffset = r.u32be(28), bOffset > 0,
            let bCurves = curves(r, at: bOffset, count: 3)
        else { return nil }
        var pipeline = ICCLookupPipeline(
            inputChannels: inputs, aCurves: [], table: nil, mCurves: [], matrix: nil, bCurves: bCurves,
            encoding: encoding)
        if tableOffset > 0 {
            guard let table = colorTable(r, at: tableOffset, inputs: inputs) else { return nil }
            pipeline.table = table
        } else if inputs != 3 {
            return nil  // without a table, the channel counts cannot change
        }
        if aOffset > 0 {
            guard let a = curves(r, at: aOffset, count: inputs) else { return nil }
            pipeline.aCurves = a
        }
        if mOffset > 0 {
            guard let m = curves(r, at: mOffset, count: 3) else { return nil }
            pipeline.mCurves = m
        }
        if matrixOffset > 0 {
            var matrix = [Double]()
            for index in 0..<12 {
                guard let value = ToneCurve.s15Fixed16(r, at: matrixOffset + 4 * index) else { return nil }
                matrix.append(value)
            }
            pipeline.matrix = matrix
        }
        return pipeline
    }

    /// `count` consecutive `curv`/`para` elements, each padded to four bytes.
    private static func curves(_ r: ByteReader, at offset: Int, count: Int) -> [ToneCurve]? {
        var result = [ToneCurve]()
        var at = offset
        for _ in 0..<count {
            // The length comes from the curve's own count: check it against the element before
            // anything is read or reserved (a count of 2³² − 1 must not allocate 8 GB).
            guard let length = curveLength(r, at: at), length <= r.count - at,
                let curve = ToneCurve.parse(r, at: at, size: length)
            else { return nil }
            result.append(curve)
            at += (length + 3) & ~3
        }
        return result
    }

    private static func curveLength(_ r: ByteReader, at offset: Int) -> Int? {
        switch r.fourCC(offset) {
        case "curv":
            return r.u32be(offset + 8).map { 12 + 2 * $0 }
        case "para":
            guard let function = r.u16be(offset + 8), function < 5 else { return nil }
            return 12 + 4 * [1, 3, 4, 5, 7][function]
        default:
            return nil
        }
    }

    /// An `mAB ` colour table: grid points per input in the first 16 bytes, then 1- or 2-byte
    /// precision at 16 and the values from 20.
    private static func colorTable(_ r: ByteReader, at offset: Int, inputs: Int) -> ColorTable? {
        var gridPoints = [Int]()
        for index in 0..<inputs {
            guard let points = r.u8(offset + index), points >= 2 else { return nil }
            gridPoints.append(points)
        }
        guard let precision = r.u8(offset + 16), precision == 1 || precision == 2,
            let nodes = nodeCount(gridPoints), offset + 20 + nodes * 3 * precision <= r.count
        else { return nil }
        let start = offset + 20
        let values = (0..<nodes * 3).map { index in
            precision == 2 ? UInt16(r.u16be(start + 2 * index)!) : UInt16(r.u8(start + index)!) * 257
        }
        return ColorTable(gridPoints: gridPoints, values: values)
    }

    private static func nodeCount(_ gridPoints: [Int]) -> Int? {
        var nodes = 1
        for points in gridPoints {
            nodes *= points
            guard nodes <= maximumTableNodes else { return nil }
        }
        return nodes
    }
}
