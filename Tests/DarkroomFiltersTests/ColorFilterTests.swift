import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Testing

// MARK: - Colour filters against hand-computed pixels

/// Two pixels: an opaque (200, 100, 50) and a translucent (10, 20, 30, α 77).
private let pair = makeImage(2, 1, [200, 100, 50, 255, 10, 20, 30, 77])

@Suite("Colour filters follow the CSS filter functions")
struct ColorFilterMathTests {
    @Test("grayscale uses Rec. 709 luma and keeps alpha")
    func grayscale() throws {
        // 0.2126·200 + 0.7152·100 + 0.0722·50 = 117.65; 0.2126·10 + 0.7152·20 + 0.0722·30 = 18.6
        let out = try GrayscaleFilter().apply(to: pair)
        #expect(maxDifference(out, [118, 118, 118, 255, 19, 19, 19, 77]) <= 1)
        #expect(out.hasAlpha == pair.hasAlpha)
    }

    @Test("grayscale is idempotent pixel for pixel")
    func grayscaleTwice() throws {
        let photo = Pattern.photo(width: 40, height: 30)
        let once = try GrayscaleFilter().apply(to: photo)
        #expect(try GrayscaleFilter().apply(to: once) == once)
    }

    @Test("sepia applies the CSS matrix, mixed with the identity by intensity")
    func sepia() throws {
        // R = .393·200 + .769·100 + .189·50 = 164.95, G = 146.8, B = 114.35
        let full = try SepiaFilter().apply(to: pair)
        #expect(maxDifference(Image.first(of: full), [165, 147, 114, 255]) <= 1)
        let half = try SepiaFilter(intensity: 0.5).apply(to: pair)
        #expect(maxDifference(Image.first(of: half), [182, 123, 82, 255]) <= 1)
        #expect(try SepiaFilter(intensity: 0).apply(to: pair) == pair)
    }

    @Test("brightness multiplies and clamps")
    func brightness() throws {
        let out = try BrightnessFilter(factor: 1.5).apply(to: pair)
        #expect(maxDifference(out, [255, 150, 75, 255, 15, 30, 45, 77]) <= 1)
        #expect(try BrightnessFilter(factor: 1).apply(to: pair) == pair)
    }

    @Test("contrast scales distances from mid-grey")
    func contrast() throws {
        // 2·(c − 127.5) + 127.5: 272.5→255, 72.5, −27.5→0;  0.5·(c − 127.5) + 127.5: 163.75, 113.75, 88.75
        let strong = try ContrastFilter(factor: 2).apply(to: pair)
        #expect(maxDifference(Image.first(of: strong), [255, 72, 0, 255]) <= 1)
        let weak = try ContrastFilter(factor: 0.5).apply(to: pair)
        #expect(maxDifference(Image.first(of: weak), [164, 114, 89, 255]) <= 1)
    }

    @Test("saturation applies the CSS saturate matrix")
    func saturation() throws {
        let pixel = makeImage(1, 1, [120, 100, 80, 200])
        // saturate(2): R = 1.787·120 − .715·100 − .072·80 = 137.18, G = 97.18, B = 57.18
        #expect(maxDifference(try SaturationFilter(factor: 2).apply(to: pixel), [137, 97, 57, 200]) <= 1)
        // saturate(0): .213·120 + .715·100 + .072·80 = 102.82 on every channel
        #expect(maxDifference(try SaturationFilter(factor: 0).apply(to: pixel), [103, 103, 103, 200]) <= 1)
        let grey = makeImage(1, 1, [90, 90, 90, 255])
        #expect(try SaturationFilter(factor: 3).apply(to: grey) == grey)
    }

    @Test("negate inverts colour, keeps alpha, and undoes itself")
    func negate() throws {
        let out = try NegateFilter().apply(to: pair)
        #expect(out.pixels == [55, 155, 205, 255, 245, 235, 225, 77])
        #expect(try NegateFilter().apply(to: out) == pair)
    }

    @Test("tint maps luma onto the colour and mixes by intensity × the colour's alpha")
    func tint() throws {
        // L = 117.65 / 255; tinted = L · (255, 128, 0) = (117.65, 59.06, 0)
        let full = try TintFilter(color: "#ff8000").apply(to: pair)
        #expect(maxDifference(Image.first(of: full), [118, 59, 0, 255]) <= 1)
        // half: (200 + 117.65)/2, (100 + 59.06)/2, 50/2
        let half = try TintFilter(color: "#ff8000", intensity: 0.5).apply(to: pair)
        #expect(maxDifference(Image.first(of: half), [159, 80, 25, 255]) <= 1)
        // a colour with alpha 0x80 tints by 128/255: 200 + 0.502·(117.65 − 200) = 158.66
        let translucent = try TintFilter(color: "#ff800080").apply(to: pair)
        #expect(maxDifference(Image.first(of: translucent), [159, 80, 25, 255]) <= 1)
        #expect(try TintFilter(color: "white").apply(to: pair) == GrayscaleFilter().apply(to: pair))
    }

    @Test("colour filters keep alpha and the hasAlpha flag", arguments: [false, true])
    func alphaUntouched(hasAlpha: Bool) throws {
        let image = makeImage(2, 1, [200, 100, 50, hasAlpha ? 9 : 255, 1, 2, 3, 255], alpha: hasAlpha)
        let filters: [any ImageFilter] = [
            try GrayscaleFilter(), try SepiaFilter(), try BrightnessFilter(factor: 2), try ContrastFilter(factor: 3),
            try SaturationFilter(factor: 4), try NegateFilter(), try TintFilter(color: "red"),
        ]
        for filter in filters {
            let out = try filter.apply(to: image)
            #expect(out.hasAlpha == hasAlpha, "\(filter.identifier)")
            #expect(out.pixels[3] == image.pixels[3] && out.pixels[7] == 255, "\(filter.identifier)")
        }
    }
}

extension Image {
    /// The first pixel alone, as a 1×1 image.
    static func first(of image: Image) -> Image {
        makeImage(1, 1, Array(image.pixels[0..<4]), alpha: image.hasAlpha)
    }
}
