import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

private typealias T = GeometryTestImages

@Suite("crop keeps exactly the rectangle's pixels, clipped to the image")
struct GeometryCropTests {
    @Test("the rectangle's bytes, unchanged", arguments: [(1, 2, 3, 2), (0, 0, 6, 5), (5, 4, 1, 1), (0, 3, 6, 1), (2, 0, 1, 5)])
    func exact(x: Int, y: Int, width: Int, height: Int) throws {
        let image = T.numbered(width: 6, height: 5)
        let out = try CropFilter(x: x, y: y, width: width, height: height).apply(to: image)
        #expect(out.size == PixelSize(width: width, height: height))
        #expect(out.pixels == T.region(image, x: x, y: y, width: width, height: height))
        #expect(out.hasAlpha)
    }

    @Test("a rectangle past the right or bottom edge is clipped")
    func clipped() throws {
        let image = T.numbered(width: 6, height: 5, alpha: false)
        let out = try CropFilter(x: 4, y: 3, width: 10, height: 10).apply(to: image)
        #expect(out.size == PixelSize(width: 2, height: 2))
        #expect(out.pixels == T.region(image, x: 4, y: 3, width: 2, height: 2))
        #expect(!out.hasAlpha)
        #expect(try CropFilter(x: 0, y: 0, width: 65535, height: 65535).apply(to: image) == image)
    }

    @Test("a rectangle entirely outside the image is an error naming it and the image size",
          arguments: [(6, 0), (0, 5), (100, 100)])
    func outside(x: Int, y: Int) throws {
        let filter = try CropFilter(x: x, y: y, width: 10, height: 10)
        #expect {
            try filter.apply(to: T.numbered(width: 6, height: 5))
        } throws: { error in
            guard case .invalidArgument = error as? DarkroomError else { return false }
            let text = "\(error)"
            return text.contains("10x10 at (\(x), \(y))") && text.contains("6x5 image")
        }
    }
}
