// ICC profiles written byte by byte, for the colour tests of several targets.

// MARK: - ICC profiles built in the test

/// Minimal ICC v2 profiles written byte by byte, so the parser is checked on inputs whose every
/// field the test chose.
public enum ProfileBytes {
    public static func s15(_ value: Double) -> [UInt8] {
        let fixed = Int32((value * 65536).rounded())
        return withUnsafeBytes(of: fixed.bigEndian) { Array($0) }
    }

    public static func u32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).bigEndian) { Array($0) } }
    public static func u16(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(value).bigEndian) { Array($0) } }

    public static func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        Array("XYZ ".utf8) + [0, 0, 0, 0] + s15(x) + s15(y) + s15(z)
    }

    public static func gamma(_ g: Double) -> [UInt8] {
        Array("curv".utf8) + [0, 0, 0, 0] + u32(1) + u16(Int((g * 256).rounded())) + [0, 0]
    }

    public static func table(_ values: [Int]) -> [UInt8] {
        Array("curv".utf8) + [0, 0, 0, 0] + u32(values.count) + values.flatMap(u16)
    }

    public static func para(_ function: Int, _ parameters: [Double]) -> [UInt8] {
        Array("para".utf8) + [0, 0, 0, 0] + u16(function) + [0, 0] + parameters.flatMap(s15)
    }

    public static func mluc(_ text: String) -> [UInt8] {
        let utf16 = text.utf16.flatMap { u16(Int($0)) }
        return Array("mluc".utf8) + [0, 0, 0, 0] + u32(1) + u32(12) + Array("enUS".utf8) + u32(utf16.count) + u32(28) + utf16
    }

    public static func profile(space: String, pcs: String = "XYZ ", tags: [(String, [UInt8])]) -> [UInt8] {
        let offset = 128 + 4 + 12 * tags.count
        var table: [UInt8] = u32(tags.count), data: [UInt8] = []
        for (signature, element) in tags {
            while (offset + data.count) % 4 != 0 { data.append(0) }
            table += Array(signature.utf8) + u32(offset + data.count) + u32(element.count)
            data += element
        }
        var header = u32(128 + table.count + data.count) + Array("none".utf8) + u32(0x0210_0000)
        header += Array("mntr".utf8) + Array(space.utf8) + Array(pcs.utf8) + [UInt8](repeating: 0, count: 12)
        header += Array("acsp".utf8)
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return header + table + data
    }

    public static func rgb(
        red: (Double, Double, Double), green: (Double, Double, Double), blue: (Double, Double, Double),
        curve: [UInt8], description: [UInt8]? = nil
    ) -> [UInt8] {
        var tags: [(String, [UInt8])] = [
            ("rXYZ", xyz(red.0, red.1, red.2)), ("gXYZ", xyz(green.0, green.1, green.2)),
            ("bXYZ", xyz(blue.0, blue.1, blue.2)), ("rTRC", curve), ("gTRC", curve), ("bTRC", curve),
        ]
        if let description { tags.insert(("desc", description), at: 0) }
        return profile(space: "RGB ", tags: tags)
    }

    /// The colorants of the sRGB IEC 61966-2.1 profile (D50).
    public static let sRGBRed = (0.436066, 0.222488, 0.013916)
    public static let sRGBGreen = (0.385147, 0.716873, 0.097076)
    public static let sRGBBlue = (0.143066, 0.060608, 0.714096)
    public static let sRGBCurve = para(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
}

// MARK: - Lookup-table elements built in the test

/// `A2B0` elements written byte by byte (see ``ProfileBytes``), with colour tables computed
/// from a function of the node's device values.
public enum LookupBytes {
    public typealias Node = (Double, Double, Double)

    /// Every node's device values, the first channel varying slowest (the ICC order).
    public static func nodes(points: Int, channels: Int) -> [[Double]] {
        let count = (0..<channels).reduce(1) { product, _ in product * points }
        return (0..<count).map { index in
            var rest = index
            var device = [Double](repeating: 0, count: channels)
            for axis in (0..<channels).reversed() {
                device[axis] = Double(rest % points) / Double(points - 1)
                rest /= points
            }
            return device
        }
    }

    public static func u16(_ value: Double) -> [UInt8] { ProfileBytes.u16(Int((min(max(value, 0), 1) * 65535).rounded())) }

    /// `mft2` with identity input and output tables (two entries each).
    public static func mft2(channels: Int, points: Int, outputs: Int = 3, table: ([Double]) -> Node) -> [UInt8] {
        var bytes = Array("mft2".utf8) + [0, 0, 0, 0, UInt8(channels), UInt8(outputs), UInt8(points), 0]
        bytes += [1.0, 0, 0, 0, 1, 0, 0, 0, 1].flatMap(ProfileBytes.s15) + ProfileBytes.u16(2) + ProfileBytes.u16(2)
        bytes += (0..<channels).flatMap { _ in u16(0) + u16(1) }
        for device in nodes(points: points, channels: channels) {
            let node = table(device)
            bytes += u16(node.0) + u16(node.1) + u16(node.2)
            if outputs > 3 { bytes += (3..<outputs).flatMap { _ in u16(0) } }
        }
        return bytes + (0..<outputs).flatMap { _ in u16(0) + u16(1) }
    }

    /// `mft1` with identity tables.
    public static func mft1(channels: Int, points: Int, table: ([Double]) -> Node) -> [UInt8] {
        var bytes = Array("mft1".utf8) + [0, 0, 0, 0, UInt8(channels), 3, UInt8(points), 0]
        bytes += [1.0, 0, 0, 0, 1, 0, 0, 0, 1].flatMap(ProfileBytes.s15)
        let identity = (0..<256).map { UInt8($0) }
        bytes += (0..<channels).flatMap { _ in identity }
        for device in nodes(points: points, channels: channels) {
            let node = table(device)
            bytes += [node.0, node.1, node.2].map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
        }
        return bytes + (0..<3).flatMap { _ in identity }
    }

    /// `mAB ` for three channels, without a colour table: A curves → M curves → matrix (3×3 and
    /// an offset) → B curves.
    public static func mAB(aCurve: [UInt8], matrix: [Double], offset: [Double]) -> [UInt8] {
        let identity = Array("curv".utf8) + [0, 0, 0, 0] + ProfileBytes.u32(0)  // 12 bytes, aligned
        let bCurves = identity + identity + identity
        let matrixBytes = (matrix + offset).flatMap(ProfileBytes.s15)
        let padded = aCurve + [UInt8](repeating: 0, count: (4 - aCurve.count % 4) % 4)
        let bAt = 32, matrixAt = bAt + bCurves.count, mAt = matrixAt + matrixBytes.count
        let aAt = mAt + bCurves.count
        var bytes = Array("mAB ".utf8) + [0, 0, 0, 0, 3, 3, 0, 0]
        bytes += [bAt, matrixAt, mAt, 0, aAt].flatMap(ProfileBytes.u32)
        return bytes + bCurves + matrixBytes + bCurves + padded + padded + padded
    }

    public static func profile(space: String, pcs: String, a2b0: [UInt8]) -> [UInt8] {
        ProfileBytes.profile(space: space, pcs: pcs, tags: [("A2B0", a2b0)])
    }

    /// Lab (legacy 16-bit encoding) for an `mft2` node.
    public static func lab16(_ l: Double, _ a: Double, _ b: Double) -> Node {
        (l * 652.8 / 65535, (a + 128) * 256 / 65535, (b + 128) * 256 / 65535)
    }
}
