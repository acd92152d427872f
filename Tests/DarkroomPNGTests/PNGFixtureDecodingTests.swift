import DarkroomCore
import DarkroomPNG
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Fixtures decode to their formulas

@Suite("libpng decodes every PNG colour type to the exact 8-bit RGBA pattern")
struct PNGFixtureDecodingTests {
    @Test("an RGB file decodes exactly and is reported opaque")
    func rgb() throws {
        let image = try decodePNG(Fixtures.bytes("gradient-rgb.png"))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient()) == 0)
        #expect(image.hasAlpha == false)
    }

    @Test("an RGBA file decodes exactly, alpha included")
    func rgba() throws {
        let image = try decodePNG(Fixtures.bytes("gradient-rgba.png"))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient(alpha: true)) == 0)
        #expect(image.hasAlpha)
    }

    @Test("a 16-bit RGBA file rounds to the exact 8-bit values, with no gamma applied")
    func rgba16() throws {
        let bytes = Fixtures.bytes("gradient-rgba16.png")
        #expect(bytes[24] == 16)  // bit depth in IHDR: really a 16-bit file
        let image = try decodePNG(bytes)
        #expect(ImageComparison.maxAbsoluteError(image, Pattern.gradient(alpha: true)) == 0)
    }

    @Test("a palette file decodes exactly and is reported opaque")
    func palette() throws {
        let bytes = Fixtures.bytes("blocks-palette.png")
        #expect(pngColorType(bytes) == 3)
        let image = try decodePNG(bytes)
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.blocks()) == 0)
        #expect(image.hasAlpha == false)
    }

    @Test("a grey+alpha file expands to RGB with its alpha")
    func greyAlpha() throws {
        let image = try decodePNG(Fixtures.bytes("gradient-gray-alpha.png"))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.greyAlpha()) == 0)
        #expect(image.hasAlpha)
    }

    @Test("the eXIf orientation is applied, or left alone when asked")
    func orientation() throws {
        let bytes = Fixtures.bytes("orientation-6.png")
        let upright = try decodePNG(bytes)
        #expect(upright.size == PixelSize(width: 64, height: 48))
        #expect(ImageComparison.meanAbsoluteError(upright, Pattern.gradient(alpha: true)) == 0)

        let stored = try decodePNG(bytes, options: DecodeOptions(appliesOrientation: false))
        #expect(stored.size == PixelSize(width: 48, height: 64))
        #expect(stored.applying(.right) == upright)
    }

    @Test("an RGBA file whose pixels are all opaque is reported opaque")
    func opaqueRGBA() throws {
        let opaque = Pattern.gradient(alpha: false)
        let asRGBA = try Image(width: opaque.width, height: opaque.height, pixels: opaque.pixels, hasAlpha: true)
        let bytes = try encodePNG(asRGBA)
        #expect(pngColorType(bytes) == 6)
        let image = try decodePNG(bytes)
        #expect(image.hasAlpha == false)
        #expect(image.pixels == opaque.pixels)
    }

    @Test("only PNG headers are accepted")
    func canDecode() {
        let decoder = PNGDecoder()
        #expect(decoder.name == "libpng")
        #expect(decoder.canDecode(ImageHeader(format: .png, width: 1, height: 1), options: DecodeOptions()))
        #expect(!decoder.canDecode(ImageHeader(format: .webp, width: 1, height: 1), options: DecodeOptions()))
    }
}

// MARK: - Interlaced files

@Suite("Adam7-interlaced PNGs decode to the same pixels as plain ones")
struct PNGInterlaceTests {
    /// `convert gradient-rgba.png -strip -interlace PNG PNG32:…` (ImageMagick 6, libpng).
    static let imageMagickRGBA = """
        iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAYAAAHWTEyJAAAAB3RJTUUH6gsVDAkl+MCSkgAAALNJREFUaN7tlTEKAjEQRf+EEYZUKfYAlt7/RN5AOwWFWOy2\
        20RwVvKK14XJm5ciJqmf1a57uC5N0j5HOGBNcfv/LbREb4r7KNsNMQwDQhbyx3evsIzfvq7AAAYcYYCpeg/5M4ttA08DAQQQQAABc5VX7l9Q87ZfnwABBBBAAAEE\
        EEAAAQRmFzCdSneV97xUl1SmhQAEIAAB0iUIQAACEIAABCAAAQhAAAIQgAAEIAABCPBDPuNx5LCYp4owAAAAAElFTkSuQmCC
        """
    /// `convert blocks-palette.png -strip -interlace PNG …`: an interlaced palette file.
    static let imageMagickPalette = """
        iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAMAAAHhkry7AAAAkFBMVEUAAIAgAIBAAIBgAICAAICgAIDAAIDgAIAAKIAgKIBAKIBgKICAKICgKIDAKIDgKIAAUIAg\
        UIBAUIBgUICAUICgUIDAUIDgUIAAeIAgeIBAeIBgeICAeICgeIDAeIDgeIAAoIAgoIBAoIBgoICAoICgoIDAoIDgoIAAyIAgyIBAyIBgyICAyICgyIDAyIDgyIBotJwR\
        AAABgUlEQVRIx92T2XKCUBBErzuLIIggCCKgKLv//3ehqSZPVt2qJA+E8zwM04dGiMVytd5sd0JRNX1vmAdh2Ufn5Hpn4QeXMLrGN5Gk2f2RP1+iKKu6abu3+OFT\
        YrFYLler9Xqz2W53/dOKqmqaru/3hmGah36LZdvHo+OcTq7reed+mx8El0sYRtH1Gse3fmuSpll2vz8eef58vvrtRVlWVV03Tdt23fvDW+Svld8hP0x+qfz0D1lw\
        PM5HAERACMRAkCGbZEBREA7xEBARERIxEXTILhmwLIRHfAiAAkiABogY3EgGfB9yoAeCoAiSoAmiBneSgSSBPOiDQCiERGiEyMGtZKAoIBd6IRiKIRmaIXpwLxn4\
        /beYwtecQh+m0KgpdHIKrf6b/2Is7ljescBjiccij2UeC/3d+n++QCEq0YhO9sQgJjmQOSywiE2OxCEn4hKPnMkcFvgkIBcSkohcSUxuZA4LEpKSjNzJg+TkSV5k\
        DgsKUpKK1KQhLenIm8xgwRdzZBoQ8kMQAAAAAABJRU5ErkJggg==
        """

    private func bytes(_ base64: String) throws -> [UInt8] {
        let data = try #require(Data(base64Encoded: base64))
        return [UInt8](data)
    }

    @Test("an RGBA file interlaced by ImageMagick decodes exactly")
    func imageMagickRGBA() throws {
        let png = try bytes(Self.imageMagickRGBA)
        #expect(pngInterlaceMethod(png) == 1)
        let image = try decodePNG(png)
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient(alpha: true)) == 0)
    }

    @Test("a palette file interlaced by ImageMagick decodes exactly")
    func imageMagickPalette() throws {
        let png = try bytes(Self.imageMagickPalette)
        #expect(pngInterlaceMethod(png) == 1)
        #expect(pngColorType(png) == 3)
        let image = try decodePNG(png)
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.blocks()) == 0)
    }

    @Test("the encoder writes Adam7 when asked, and it round-trips exactly")
    func encoderInterlace() throws {
        // 61×37: sizes that leave partial Adam7 blocks at the edges.
        let source = Pattern.gradient(alpha: true, width: 61, height: 37)
        let plain = try encodePNG(source)
        let interlaced = try encodePNG(source, interlaced: true)
        #expect(pngInterlaceMethod(plain) == 0)
        #expect(pngInterlaceMethod(interlaced) == 1)
        #expect(try decodePNG(interlaced) == source)
    }
}
