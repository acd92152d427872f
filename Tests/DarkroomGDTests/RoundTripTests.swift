import DarkroomCore
import DarkroomGD
import DarkroomTestSupport
import Testing

/// Encodes with ``GDEncoder`` and decodes the bytes back with ``GDDecoder``.
private func roundTrip(_ image: Image, _ options: EncodeOptions) throws -> (bytes: [UInt8], image: Image) {
    let bytes = try GDEncoder(format: options.format).encode(image, options: options)
    #expect(try ImageProbe.probe(bytes).format == options.format)
    return (bytes, try GDDecoder().decode(bytes))
}

private let photo = Pattern.photo(width: 160, height: 120)

@Suite("lossless formats written by libgd read back exactly (alpha to 7 bits)")
struct LosslessRoundTripTests {
    @Test("opaque images come back identical", arguments: [
        EncodeOptions(format: .png), EncodeOptions(format: .webp, lossless: true),
        EncodeOptions(format: .bmp), EncodeOptions(format: .tiff),
    ])
    func opaqueIsExact(_ options: EncodeOptions) throws {
        let decoded = try roundTrip(photo, options).image
        #expect(decoded == photo)
    }

    @Test("alpha survives PNG and lossless WebP within the dropped bit", arguments: [
        EncodeOptions(format: .png), EncodeOptions(format: .webp, lossless: true),
    ])
    func alphaWithinSevenBits(_ options: EncodeOptions) throws {
        let source = Pattern.gradient(alpha: true)
        let decoded = try roundTrip(source, options).image
        #expect(decoded.hasAlpha)
        #expect(ImageComparison.maxAbsoluteError(decoded, source, includeAlpha: false) == 0)
        #expect(ImageComparison.maxAbsoluteError(decoded, source) <= 1)
    }

    @Test("TIFF keeps alpha (premultiplied in the file, straight again on reading)")
    func tiffAlpha() throws {
        let source = Pattern.gradient(alpha: true)
        let decoded = try roundTrip(source, EncodeOptions(format: .tiff)).image
        #expect(decoded.hasAlpha)
        // Alpha comes back within 1 (7 bits). Colour goes through c·a/255 (±½) and back
        // through the 7-bit alpha (off by ≤ 1), so its error is at most about (255 + 128)/a.
        for i in stride(from: 0, to: source.pixels.count, by: 4) {
            let a = Int(source.pixels[i + 3])
            #expect(abs(Int(decoded.pixels[i + 3]) - a) <= 1)
            guard a > 0 else { continue }
            let bound = 1 + (255 + 128) / a
            for c in 0..<3 {
                #expect(abs(Int(decoded.pixels[i + c]) - Int(source.pixels[i + c])) <= bound)
            }
        }
    }

    @Test("PNG compression level trades size for time")
    func pngLevels() throws {
        let fast = try GDEncoder(format: .png).encode(photo, options: EncodeOptions(format: .png, compressionLevel: 0))
        let small = try GDEncoder(format: .png).encode(photo, options: EncodeOptions(format: .png, compressionLevel: 9))
        #expect(small.count < fast.count)
        #expect(try GDDecoder().decode(small) == GDDecoder().decode(fast))
    }
}

@Suite("lossy formats written by libgd stay close to the source")
struct LossyRoundTripTests {
    @Test("JPEG at quality 90 is close; quality trades size")
    func jpeg() throws {
        let (bytes, decoded) = try roundTrip(photo, EncodeOptions(format: .jpeg, quality: 90))
        #expect(!decoded.hasAlpha)
        #expect(ImageComparison.meanAbsoluteError(decoded, photo) < 1)  // measured 0.44
        let low = try GDEncoder(format: .jpeg).encode(photo, options: EncodeOptions(format: .jpeg, quality: 20))
        #expect(low.count < bytes.count)
    }

    @Test("progressive JPEG is progressive")
    func progressive() throws {
        let (bytes, decoded) = try roundTrip(photo, EncodeOptions(format: .jpeg, progressive: true))
        #expect(try ImageProbe.probe(bytes).isProgressive)
        #expect(ImageComparison.meanAbsoluteError(decoded, photo) < 1.5)  // quality 80, measured 0.68
        let baseline = try GDEncoder(format: .jpeg).encode(photo, options: EncodeOptions(format: .jpeg))
        #expect(try !ImageProbe.probe(baseline).isProgressive)
    }

    @Test("JPEG and BMP composite translucent pixels over white", arguments: [ImageFormat.jpeg, .bmp])
    func flattensOverWhite(_ format: ImageFormat) throws {
        let source = Pattern.gradient(alpha: true)
        let decoded = try roundTrip(source, EncodeOptions(format: format, quality: format == .jpeg ? 95 : nil)).image
        #expect(!decoded.hasAlpha)
        #expect(ImageComparison.meanAbsoluteError(decoded, source.flattened()) < (format == .jpeg ? 1.5 : 0.01))
    }

    @Test("lossy WebP is close and keeps alpha")
    func webp() throws {
        let decoded = try roundTrip(photo, EncodeOptions(format: .webp, quality: 90)).image
        #expect(ImageComparison.meanAbsoluteError(decoded, photo) < 1.5)  // measured 0.84
        let source = Pattern.gradient(alpha: true)
        let translucent = try roundTrip(source, EncodeOptions(format: .webp, quality: 90)).image
        #expect(translucent.hasAlpha)
        #expect(ImageComparison.meanAbsoluteError(translucent, source) < 1.5)  // measured ≈ 1.0
    }

    @Test("AVIF is close and keeps alpha")
    func avif() throws {
        let options = EncodeOptions(format: .avif, quality: 80, speed: 10)
        let decoded = try roundTrip(photo, options).image
        #expect(ImageComparison.meanAbsoluteError(decoded, photo) < 1.5)  // measured 0.70
        let source = Pattern.gradient(alpha: true)
        let translucent = try roundTrip(source, options).image
        #expect(translucent.hasAlpha)
        #expect(ImageComparison.meanAbsoluteError(translucent, source) < 1.5)  // measured ≈ 1.0
    }
}

@Suite("GIF written by libgd uses an exact palette when it can and one transparent colour")
struct GIFRoundTripTests {
    @Test("48 colours come back exactly")
    func exactPalette() throws {
        let decoded = try roundTrip(Pattern.blocks(), EncodeOptions(format: .gif)).image
        #expect(decoded == Pattern.blocks())
    }

    @Test("many colours are quantised to 256 without dithering")
    func quantised() throws {
        let decoded = try roundTrip(photo, EncodeOptions(format: .gif)).image
        #expect(!decoded.hasAlpha)
        #expect(ImageComparison.meanAbsoluteError(decoded, photo) < 4)  // measured 3.05
    }

    @Test("alpha below 128 becomes the transparent colour", arguments: [false, true])
    func transparency(manyColours: Bool) throws {
        let source = manyColours ? Pattern.gradient(alpha: true) : Pattern.blocks().withLeftHalfTransparent()
        let decoded = try roundTrip(source, EncodeOptions(format: .gif)).image
        #expect(decoded.hasAlpha)
        for y in stride(from: 0, to: 48, by: 7) {
            for x in stride(from: 0, to: 64, by: 3) {
                #expect(decoded.pixel(x: x, y: y).a == (source.pixel(x: x, y: y).a < 128 ? 0 : 255))
            }
        }
    }
}

extension Image {
    fileprivate func withLeftHalfTransparent() -> Image {
        var pixels = self.pixels
        for y in 0..<height { for x in 0..<width / 2 { pixels[(y * width + x) * 4 + 3] = 0 } }
        return try! Image(width: width, height: height, pixels: pixels, hasAlpha: true)
    }
}
