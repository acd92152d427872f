import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - trim

@Suite("trim cuts away borders of the top-left pixel's colour, keeping the content's pixels exactly")
struct GeometryTrimTests {
    /// `width`×`height` of `border`, with `content` pixels (a gradient, never the border) in the
    /// rectangle `columns` × `rows`.
    static func framed(
        _ width: Int, _ height: Int, border: RGBA, columns: Range<Int>, rows: Range<Int>, alpha: Bool = false
    ) -> Image {
        var bytes = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                if columns.contains(x) && rows.contains(y) {
                    bytes += [UInt8(40 + x), UInt8(30 + y), 0, 255]
                } else {
                    bytes += [border.r, border.g, border.b, border.a]
                }
            }
        }
        return makeImage(width, height, bytes, alpha: alpha)
    }

    @Test("a white frame of uneven widths is cut to the content, pixel for pixel")
    func whiteFrame() throws {
        let image = Self.framed(40, 30, border: RGBA(r: 255, g: 255, b: 255, a: 255), columns: 3..<31, rows: 7..<29)
        let trimmed = try TrimFilter().apply(to: image)
        #expect(trimmed.width == 28 && trimmed.height == 22)
        #expect(trimmed == (try CropFilter(x: 3, y: 7, width: 28, height: 22).apply(to: image)))
    }

    @Test("border colours within the threshold are border; beyond it, content")
    func threshold() throws {
        var image = Self.framed(20, 20, border: RGBA(r: 250, g: 250, b: 250, a: 255), columns: 5..<15, rows: 5..<15)
        // A near-white speck in the border, 8 levels off: border at threshold 10, content at 5.
        var bytes = image.pixels
        bytes[(1 * 20 + 1) * 4] = 242
        image = makeImage(20, 20, bytes, alpha: false)
        #expect(try TrimFilter(threshold: 10).apply(to: image).width == 10)
        let strict = try TrimFilter(threshold: 5).apply(to: image)
        #expect(strict.width == 14 && strict.height == 14)
    }

    @Test("transparent borders are cut whatever colour their pixels hold")
    func transparentBorder() throws {
        var image = Self.framed(16, 12, border: RGBA(r: 0, g: 0, b: 0, a: 0), columns: 4..<10, rows: 2..<9, alpha: true)
        var bytes = image.pixels
        bytes[(11 * 16 + 15) * 4] = 200  // an invisible red pixel in the corner
        image = makeImage(16, 12, bytes, alpha: true)
        let trimmed = try TrimFilter().apply(to: image)
        #expect(trimmed.width == 6 && trimmed.height == 7)
        #expect(trimmed.hasAlpha)
    }

    @Test("an image that is all border, or has none, is left as it is")
    func nothingToTrim() throws {
        let flat = constantImage(9, 5, RGBA(r: 10, g: 20, b: 30, a: 255), alpha: false)
        #expect(try TrimFilter().apply(to: flat) == flat)
        let full = Self.framed(8, 8, border: RGBA(r: 255, g: 255, b: 255, a: 255), columns: 0..<8, rows: 0..<8)
        #expect(try TrimFilter().apply(to: full) == full)
        #expect(try TrimFilter(threshold: 20).identifier == "trim(threshold=20)")
        #expect(throws: DarkroomError.self) { try TrimFilter(threshold: 256) }
    }
}
