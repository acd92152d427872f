import DarkroomCore

// MARK: - ColorMatrix

/// An affine map of the colour channels, `out = M · (r, g, b) + offset`, applied in 16-bit
/// fixed point with rounding and clamping. Alpha is copied unchanged. Every colour filter
/// (the CSS filter functions are exactly such matrices) is one of these.
///
/// ```swift
/// let negate = ColorMatrix(rows: [[-1, 0, 0], [0, -1, 0], [0, 0, -1]], offsets: [255, 255, 255])
/// let out = negate.apply(to: image)
/// ```
struct ColorMatrix: Sendable, Equatable {
    /// Three rows of three coefficients (output channel × input channel).
    var rows: [[Double]]
    /// Added to each output channel, in 0…255 units.
    var offsets: [Double]

    init(rows: [[Double]], offsets: [Double] = [0, 0, 0]) {
        precondition(rows.count == 3 && rows.allSatisfy { $0.count == 3 } && offsets.count == 3)
        self.rows = rows
        self.offsets = offsets
    }

    /// `scale · c + offset` on every colour channel.
    static func diagonal(scale: Double, offset: Double) -> ColorMatrix {
        ColorMatrix(rows: [[scale, 0, 0], [0, scale, 0], [0, 0, scale]], offsets: [offset, offset, offset])
    }

    /// Rec. 709 luma weights, the ones CSS `grayscale()` uses.
    static let luma: [Double] = [0.2126, 0.7152, 0.0722]

    /// `(1 − t) · self + t · other`, coefficient by coefficient.
    func mixed(with other: ColorMatrix, _ t: Double) -> ColorMatrix {
        ColorMatrix(
            rows: (0..<3).map { r in (0..<3).map { c in rows[r][c] * (1 - t) + other.rows[r][c] * t } },
            offsets: (0..<3).map { offsets[$0] * (1 - t) + other.offsets[$0] * t })
    }

    // MARK: - Fixed point

    static let fractionBits = 16
    static let one = 1 << fractionBits

    /// The coefficients in 16-bit fixed point, each row rounded so that its sum is the rounded
    /// exact sum: rows summing to 1 (grey, sepia's neighbours, saturation) map grey to itself.
    var fixedRows: [[Int32]] {
        rows.map { row in
            var fixed = row.map { Int32(($0 * Double(Self.one)).rounded()) }
            let target = Int32((row.reduce(0, +) * Double(Self.one)).rounded())
            let largest = fixed.indices.max { abs(row[$0]) < abs(row[$1]) }!
            fixed[largest] += target - fixed.reduce(0, +)
            return fixed
        }
    }

    /// The offsets in fixed point, with the rounding half already added.
    var fixedOffsets: [Int32] {
        offsets.map { Int32(($0 * Double(Self.one)).rounded()) + Int32(Self.one / 2) }
    }

    var isDiagonal: Bool {
        (0..<3).allSatisfy { r in (0..<3).allSatisfy { c in r == c || rows[r][c] == 0 } }
    }

    // MARK: - Applying

    /// The image with every pixel's colour mapped; alpha and `hasAlpha` unchanged.
    func apply(to image: Image) -> Image {
        isDiagonal ? applyByTable(to: image) : applyByMultiplying(to: image)
    }

    /// Diagonal matrices (brightness, contrast, negate) are three 256-entry tables.
    private func applyByTable(to image: Image) -> Image {
        let m = fixedRows, o = fixedOffsets
        let tables: [[UInt8]] = (0..<3).map { c in
            (0..<256).map { v in UInt8(clamping: (m[c][c] * Int32(v) + o[c]) >> Int32(Self.fractionBits)) }
        }
        return image.pixels.withUnsafeBufferPointer { src in
            tables[0].withUnsafeBufferPointer { tr in
                tables[1].withUnsafeBufferPointer { tg in
                    tables[2].withUnsafeBufferPointer { tb in
                        Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { dst in
                            var i = 0
                            let count = src.count
                            while i < count {
                                dst[i] = tr[Int(src[i])]
                                dst[i + 1] = tg[Int(src[i + 1])]
                                dst[i + 2] = tb[Int(src[i + 2])]
                                dst[i + 3] = src[i + 3]
                                i += 4
                            }
                        }
                    }
                }
            }
        }
    }

    /// The general case: nine multiplies per pixel. Bounds: coefficients stay below 4·2¹⁶ in
    /// magnitude and offsets below 1024·2¹⁶ for every declared filter range, so the sums fit in
    /// `Int32` and the wrapping operators cannot wrap.
    private func applyByMultiplying(to image: Image) -> Image {
        let m = fixedRows, o = fixedOffsets
        let m00 = m[0][0], m01 = m[0][1], m02 = m[0][2], o0 = o[0]
        let m10 = m[1][0], m11 = m[1][1], m12 = m[1][2], o1 = o[1]
        let m20 = m[2][0], m21 = m[2][1], m22 = m[2][2], o2 = o[2]
        let shift = Int32(Self.fractionBits)
        return image.pixels.withUnsafeBufferPointer { src in
            Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { dst in
                var i = 0
                let count = src.count
                while i < count {
                    let r = Int32(src[i]), g = Int32(src[i + 1]), b = Int32(src[i + 2])
                    let outR = (m00 &* r &+ m01 &* g &+ m02 &* b &+ o0) &>> shift
                    let outG = (m10 &* r &+ m11 &* g &+ m12 &* b &+ o1) &>> shift
                    let outB = (m20 &* r &+ m21 &* g &+ m22 &* b &+ o2) &>> shift
                    dst[i] = UInt8(truncatingIfNeeded: outR < 0 ? 0 : (outR > 255 ? 255 : outR))
                    dst[i + 1] = UInt8(truncatingIfNeeded: outG < 0 ? 0 : (outG > 255 ? 255 : outG))
                    dst[i + 2] = UInt8(truncatingIfNeeded: outB < 0 ? 0 : (outB > 255 ? 255 : outB))
                    dst[i + 3] = src[i + 3]
                    i += 4
                }
            }
        }
    }
}
