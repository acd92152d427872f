import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - aspect-fill(gravity=entropy)

@Suite("aspect-fill with gravity=entropy keeps the part of the image with the most detail")
struct GeometryEntropyCropTests {
    /// A flat grey image `width`×`height` with noise (a fixed pseudo-random sequence) in the
    /// columns `detail` and rows `rows`.
    static func image(width: Int, height: Int, detail: Range<Int>, rows: Range<Int>) -> Image {
        var state: UInt32 = 12345
        var values = [UInt8](repeating: 128, count: width * height)
        for y in rows {
            for x in detail {
                state = state &* 1_103_515_245 &+ 12345
                values[y * width + x] = UInt8(truncatingIfNeeded: state >> 16)
            }
        }
        return greyImage(width, height, values)
    }

    func fill(_ image: Image, _ width: Int, _ height: Int, gravity: String, upscale: Bool = true) throws -> Image {
        try AspectFillFilter(width: width, height: height, gravity: gravity, upscale: upscale).apply(to: image)
    }

    @Test("detail at the right of a wide image: the same pixels as gravity=east")
    func wide() throws {
        let image = Self.image(width: 300, height: 100, detail: 200..<300, rows: 0..<100)
        #expect(try fill(image, 100, 100, gravity: "entropy") == fill(image, 100, 100, gravity: "east"))
        #expect(try fill(image, 100, 100, gravity: "entropy") != fill(image, 100, 100, gravity: "center"))
    }

    @Test("detail at the top of a tall image, shrunk as it is cropped: the same pixels as gravity=north")
    func tall() throws {
        let image = Self.image(width: 120, height: 480, detail: 0..<120, rows: 0..<120)
        #expect(try fill(image, 60, 60, gravity: "entropy") == fill(image, 60, 60, gravity: "north"))
    }

    @Test("detail in the middle third is kept whole; a flat image is cropped in the middle, as center")
    func middleAndFlat() throws {
        let middle = Self.image(width: 300, height: 100, detail: 100..<200, rows: 0..<100)
        #expect(try fill(middle, 100, 100, gravity: "entropy") == fill(middle, 100, 100, gravity: "center"))
        let flat = constantImage(300, 100, RGBA(r: 40, g: 90, b: 200, a: 255), alpha: false)
        #expect(try fill(flat, 100, 100, gravity: "entropy") == fill(flat, 100, 100, gravity: "center"))
    }

    @Test("with upscale=false a small image is only cropped, at its detailed side")
    func noUpscale() throws {
        let image = Self.image(width: 90, height: 30, detail: 0..<30, rows: 0..<30)
        let kept = try fill(image, 40, 40, gravity: "entropy", upscale: false)
        #expect(kept.width == 40 && kept.height == 30)
        #expect(kept == (try fill(image, 40, 40, gravity: "west", upscale: false)))
    }

    @Test("entropy is an aspect-fill gravity in the identifier, and not a pad gravity")
    func argument() throws {
        #expect(try AspectFillFilter(width: 10, height: 10, gravity: "entropy").identifier
            == "aspect-fill(gravity=entropy,height=10,kernel=lanczos3,upscale=true,width=10)")
        let pad = StandardFilters.schemas.first { $0.name == "pad" }!
        #expect(throws: DarkroomError.self) {
            try pad.makeFilter([("width", .integer(10)), ("height", .integer(10)), ("gravity", .text("entropy"))])
        }
    }
}
