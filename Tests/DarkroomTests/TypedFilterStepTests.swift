import Darkroom
import DarkroomTestSupport
import Testing

// MARK: - Typed filter steps

@Suite("Typed filter steps make the same filters, identifiers and pixels as filters.d's strings")
struct TypedFilterStepTests {
    /// Every standard filter but `overlay` (which needs a loader), typed and as `filters.d` spells it.
    static let pairs: [(FilterStep, String)] = [
        (.scale(width: 64, height: 48), "scale(width=64,height=48)"),
        (.scale(width: 64, height: 48, upscale: false, kernel: .mitchell), "scale(width=64,height=48,upscale=false,kernel=mitchell)"),
        (.aspectFit(width: 256), "aspect-fit(width=256)"),
        (.aspectFit(height: 90, kernel: .box), "aspect-fit(height=90,kernel=box)"),
        (.aspectFill(width: 128, height: 128), "aspect-fill(width=128,height=128)"),
        (.aspectFill(width: 40, height: 30, gravity: "entropy"), "aspect-fill(width=40,height=30,gravity=entropy)"),
        (.crop(x: 1, y: 2, width: 10, height: 12), "crop(x=1,y=2,width=10,height=12)"),
        (.trim(), "trim"),
        (.trim(threshold: 30), "trim(threshold=30)"),
        (.rotate(angle: 90), "rotate(angle=90)"),
        (.rotate(angle: 30, background: RGBA(r: 255, g: 0, b: 0)), "rotate(angle=30,background=#ff0000)"),
        (.flip, "flip"), (.flop, "flop"),
        (.pad(width: 80, height: 80, gravity: "north"), "pad(width=80,height=80,gravity=north)"),
        (.extend(top: 4, left: 2), "extend(top=4,left=2)"),
        (.circle, "circle"),
        (.roundedCorners(radius: 8), "rounded-corners(radius=8)"),
        (.grayscale, "grayscale"), (.negate, "negate"),
        (.sepia(intensity: 0.5), "sepia(intensity=0.5)"),
        (.brightness(1.2), "brightness(factor=1.2)"),
        (.contrast(0.8), "contrast(factor=0.8)"),
        (.saturation(1.5), "saturation(factor=1.5)"),
        (.tint("#ff8800", intensity: 0.3), "tint(color=#ff8800,intensity=0.3)"),
        (.blur(sigma: 3), "blur(sigma=3)"),
        (.sharpen(sigma: 0.5, amount: 2), "sharpen(sigma=0.5,amount=2)"),
        (.pixelate(size: 4), "pixelate(size=4)"),
        (.flatten(background: "#000000"), "flatten(background=#000000)"),
    ]

    @Test("every standard filter's step has the identifier of its string form")
    func identifiers() throws {
        for (step, text) in Self.pairs {
            #expect(try step.filter().identifier == Registry.standard.filter(parsing: text).identifier, "\(text)")
        }
        let covered = Set(try Self.pairs.map { String(try $0.0.filter().identifier.prefix { $0 != "(" }) })
        let standard = Set(Registry.standard.filters.keys).subtracting(["overlay"])
        #expect(covered == standard.subtracting(["vignette"]), "steps missing for \(standard.subtracting(covered).sorted())")
    }

    @Test("a typed chain renders the same pixels as the parsed one")
    func pixels() throws {
        let photo = try Registry.standard.decode(Fixtures.bytes("gradient.jpg"))
        let typed = try photo.applying(.aspectFill(width: 64, height: 64), .circle, .sepia(intensity: 0.5))
        let parsed = try Registry.standard.chain(parsing: "aspect-fill(width=64,height=64)|circle|sepia(intensity=0.5)")
        #expect(typed == (try FilterChain(parsed.filters).apply(to: photo)))
        #expect(typed.size == PixelSize(width: 64, height: 64))
    }

    @Test("an argument out of range is reported when the chain is built, naming the argument")
    func refusal() throws {
        let step = FilterStep.aspectFill(width: 0, height: 128)
        #expect(throws: DarkroomError.self) { try FilterChain(.circle, step) }
        do {
            _ = try RenderTarget(name: "bad", filters: [.blur(sigma: 1000)])
            Issue.record("blur(sigma=1000) was accepted")
        } catch {
            #expect("\(error)".contains("sigma"), "\(error)")
        }
    }

    @Test("a target of typed steps has the identifier of the same variant in filters.d")
    func targetIdentifier() throws {
        let target = try RenderTarget(
            name: "avatar", filters: [.aspectFill(width: 128, height: 128), .circle], encoding: VariantEncoding(format: .png))
        let parsed = try Registry.standard.chain(parsing: "aspect-fill(width=128,height=128)|circle")
        let expected = RenderTarget(name: "avatar", chain: FilterChain(parsed.filters), encoding: VariantEncoding(format: .png))
        #expect(target.identifier == expected.identifier)
    }

    @Test("a filter of your own goes in a chain as a step")
    func ownFilter() throws {
        let own = try Registry.standard.filter(parsing: "negate")
        #expect(try FilterChain(FilterStep(own), .flip).identifier == "negate|flip")
    }
}
