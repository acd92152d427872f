import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

private typealias T = GeometryTestImages

@Suite("flip and flop mirror exactly and undo themselves")
struct GeometryMirrorTests {
    static let sizes = [(6, 5), (1, 7), (7, 1), (1, 1), (2, 2)]

    @Test("flip turns rows upside down, as EXIF orientation 4 does", arguments: sizes)
    func flip(width: Int, height: Int) throws {
        let image = T.numbered(width: width, height: height)
        let out = try FlipFilter().apply(to: image)
        #expect(out == image.applying(.downMirrored))
        #expect(out.pixel(x: 0, y: 0) == image.pixel(x: 0, y: height - 1))
    }

    @Test("flop mirrors columns left to right, as EXIF orientation 2 does", arguments: sizes)
    func flop(width: Int, height: Int) throws {
        let image = T.numbered(width: width, height: height)
        let out = try FlopFilter().apply(to: image)
        #expect(out == image.applying(.upMirrored))
        #expect(out.pixel(x: 0, y: 0) == image.pixel(x: width - 1, y: 0))
    }

    @Test("flip∘flip and flop∘flop are the identity; flip∘flop is a half turn")
    func involutions() throws {
        let image = T.numbered(width: 9, height: 4, alpha: false)
        let flip = try FlipFilter(), flop = try FlopFilter()
        #expect(try flip.apply(to: flip.apply(to: image)) == image)
        #expect(try flop.apply(to: flop.apply(to: image)) == image)
        #expect(try flip.apply(to: flop.apply(to: image)) == RotateFilter(angle: 180).apply(to: image))
        #expect(try !flip.apply(to: image).hasAlpha)
    }
}
