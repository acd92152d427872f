import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

private func grey(_ width: Int, _ height: Int) -> Image {
    constantImage(width, height, RGBA(r: 90, g: 120, b: 150), alpha: false)
}

private let aspectFit = StandardFilters.geometry.first { $0.name == "aspect-fit" }!

// MARK: - aspect-fit with one side

@Suite("aspect-fit takes one side alone: the other follows the aspect ratio")
struct OneSidedFitTests {
    @Test("width alone, height alone, and both, on wide and tall images", arguments: [
        // (image w, h, width, height, expected w, h); 0 leaves a side out
        (400, 100, 256, 0, 256, 64), (100, 400, 256, 0, 256, 1024), (400, 100, 0, 50, 200, 50),
        (100, 400, 0, 50, 13, 50), (4000, 3000, 1024, 0, 1024, 768), (3, 1000, 0, 100, 1, 100),
        (400, 100, 256, 256, 256, 64),
    ])
    func sizes(w: Int, h: Int, width: Int, height: Int, ew: Int, eh: Int) throws {
        let filter = try AspectFitFilter(width: width, height: height)
        let out = try filter.apply(to: grey(w, h))
        #expect(out.size == PixelSize(width: ew, height: eh))
        #expect(filter.outputSize(forInputSize: PixelSize(width: w, height: h)) == out.size)
    }

    @Test("upscale=false leaves a narrower image alone; the hint never exceeds the source")
    func noUpscale() throws {
        let filter = try AspectFitFilter(width: 1024, upscale: false)
        let small = grey(300, 2000)
        #expect(try filter.apply(to: small) == small)
        #expect(try filter.apply(to: grey(2048, 4000)).size == PixelSize(width: 1024, height: 2000))
        let hint = try #require(filter.sizeHint(forSourceSize: PixelSize(width: 2048, height: 4000)))
        #expect(hint.width <= 2048 && hint.height <= 4000 && hint.width >= 1024)
    }

    @Test("from declared inputs: a side left out is 0 in the identifier, and 0 written out is the same filter")
    func identifiers() throws {
        let widthOnly = try aspectFit.makeFilter([("width", .integer(256))])
        #expect(widthOnly.identifier == "aspect-fit(height=0,kernel=lanczos3,upscale=true,width=256)")
        let spelled = try aspectFit.makeFilter([("width", .integer(256)), ("height", .integer(0))])
        #expect(spelled.identifier == widthOnly.identifier)
        let both = try aspectFit.makeFilter([("width", .integer(256)), ("height", .integer(256))])
        #expect(both.identifier == "aspect-fit(height=256,kernel=lanczos3,upscale=true,width=256)")
    }

    @Test("neither side is refused by name, as is a negative side", arguments: [
        [(String, FilterInput)](), [("width", .integer(0)), ("height", .integer(0))], [("upscale", .text("false"))],
        [("width", .integer(-5))], [("height", .integer(16385))],
    ])
    func refused(inputs: [(String, FilterInput)]) {
        #expect {
            _ = try aspectFit.makeFilter(inputs)
        } throws: { error in
            let text = "\(error)"
            return text.contains("a width, a height or both") || text.contains("0…16384")
        }
        #expect(throws: DarkroomError.self) { try AspectFitFilter(upscale: false) }
    }
}
