import DarkroomCore
import DarkroomPNG
import DarkroomTestSupport
import Testing

// MARK: - Round trips

@Suite("PNG round trips keep every pixel, all 256 alpha values included")
struct PNGRoundTripTests {
    @Test("every alpha value 0…255, and the colour under alpha 0, survive PNG → PNG")
    func alphaValues() throws {
        let source = alphaRamp()
        let bytes = try encodePNG(source)
        #expect(pngColorType(bytes) == 6)
        let decoded = try decodePNG(bytes)
        #expect(decoded.pixels == source.pixels)
        #expect(decoded.hasAlpha)
        // And once more through the codec: PNG → Image → PNG → Image.
        #expect(try decodePNG(encodePNG(decoded)).pixels == source.pixels)
    }

    @Test("the decoded fixtures re-encode losslessly", arguments: [
        "gradient-rgb.png", "gradient-rgba.png", "gradient-rgba16.png", "blocks-palette.png", "gradient-gray-alpha.png",
    ])
    func fixtures(name: String) throws {
        let decoded = try decodePNG(Fixtures.bytes(name))
        let again = try decodePNG(encodePNG(decoded))
        #expect(again == decoded)
    }
}

// MARK: - Encoder settings

@Suite("The PNG encoder's settings change the file, never the pixels")
struct PNGEncoderSettingsTests {
    @Test("a higher compression level gives a smaller file with the same pixels")
    func compressionLevel() throws {
        let source = Pattern.photo(width: 192, height: 128)
        let stored = try encodePNG(source, level: 0)
        let fast = try encodePNG(source, level: 1)
        let best = try encodePNG(source, level: 9)
        #expect(stored.count > fast.count)
        #expect(fast.count > best.count)
        // Level 0 stores: at least the raw RGB bytes.
        #expect(stored.count >= source.width * source.height * 3)
        for bytes in [stored, fast, best] {
            #expect(try decodePNG(bytes).pixels == source.pixels)
        }
    }

    @Test("an opaque image is written as RGB (colour type 2), a translucent one as RGBA (6)")
    func colourType() throws {
        #expect(pngColorType(try encodePNG(Pattern.gradient(alpha: false))) == 2)
        #expect(pngColorType(try encodePNG(Pattern.gradient(alpha: true))) == 6)
        let decoded = try decodePNG(encodePNG(Pattern.gradient(alpha: false)))
        #expect(decoded.hasAlpha == false)
        #expect(decoded.pixels == Pattern.gradient(alpha: false).pixels)
    }

    @Test("the default level is 6: the same bytes as asking for 6")
    func defaultLevel() throws {
        let source = Pattern.photo(width: 64, height: 64)
        #expect(try encodePNG(source) == encodePNG(source, level: 6))
        #expect(try encodePNG(source, level: 6) != encodePNG(source, level: 1))
    }

    @Test("out-of-range levels and the wrong format are refused")
    func invalidOptions() {
        let image = Pattern.gradient()
        #expect(throws: DarkroomError.invalidArgument(name: "compression level", value: "10", expected: "an integer 0…9")) {
            try PNGEncoder().encode(image, options: EncodeOptions(format: .png, compressionLevel: 10))
        }
        #expect(throws: DarkroomError.self) {
            try PNGEncoder().encode(image, options: EncodeOptions(format: .jpeg))
        }
    }

    @Test("the encoder names itself and its format")
    func identity() {
        #expect(PNGEncoder().name == "libpng")
        #expect(PNGEncoder().format == .png)
    }
}
