import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - flatten

@Suite("flatten composites over an opaque background and drops alpha")
struct CompositionFlattenTests {
    /// Opaque (200, 100, 50), half-transparent red, fully transparent green.
    private let translucent = makeImage(3, 1, [200, 100, 50, 255, 255, 0, 0, 128, 0, 255, 0, 0])

    @Test("each pixel is c·a + background·(1 − a), rounded; the result has no alpha")
    func composites() throws {
        let out = try FlattenFilter(background: "#204060").apply(to: translucent)
        #expect(!out.hasAlpha)
        // red over (32, 64, 96) at 128/255: 255·.502 + 32·.498 = 143.9; 64·.498 = 31.9; 96·.498 = 47.8
        #expect(maxDifference(out, [200, 100, 50, 255, 144, 32, 48, 255, 32, 64, 96, 255]) <= 1)
    }

    @Test("the default background is white, as when a JPEG is encoded")
    func whiteByDefault() throws {
        let filter = try FlattenFilter()
        #expect(filter.identifier == "flatten(background=#ffffffff)")
        #expect(try filter.apply(to: translucent) == translucent.flattened())
    }

    @Test("an opaque image keeps its pixels, and flattening twice is flattening once")
    func opaqueAndIdempotent() throws {
        let photo = Pattern.photo(width: 24, height: 16)
        let filter = try FlattenFilter(background: "black")
        #expect(try filter.apply(to: photo).pixels == photo.pixels)
        let once = try filter.apply(to: translucent)
        #expect(try filter.apply(to: once) == once)
        #expect(filter.isIdempotent)
    }

    @Test("a translucent background is refused, naming the colour")
    func translucentBackground() throws {
        #expect(throws: DarkroomError.invalidArgument(
            name: "flatten argument 'background'", value: "#ff000080", expected: "an opaque colour (alpha ff)")
        ) { try FlattenFilter(background: "#ff000080") }
        let schema = StandardFilters.schemas.first { $0.name == "flatten" }!
        #expect(throws: DarkroomError.self) { try schema.makeFilter([("background", .text("#0000"))]) }
    }
}
