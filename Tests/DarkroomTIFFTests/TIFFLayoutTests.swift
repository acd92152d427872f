import DarkroomCore
import DarkroomTestSupport
import DarkroomTIFF
import Testing

// MARK: - Layouts

/// A `width`×`height` RGB(A) pattern: R = 9x, G = 13y, B = 255 − 5(x + y), A = 40 + 7(x + y)
/// capped at 255.
func patternSamples(width: Int, height: Int, alpha: Bool) -> [UInt64] {
    var samples: [UInt64] = []
    for y in 0..<height {
        for x in 0..<width {
            samples += [UInt64(9 * x % 256), UInt64(13 * y % 256), UInt64(max(0, 255 - 5 * (x + y)))]
            if alpha { samples.append(UInt64(min(255, 40 + 7 * (x + y)))) }
        }
    }
    return samples
}

/// The image `patternSamples` describes (straight alpha).
func patternImage(width: Int, height: Int, alpha: Bool) -> Image {
    let samples = patternSamples(width: width, height: height, alpha: alpha)
    let channels = alpha ? 4 : 3
    var pixels: [UInt8] = []
    for i in 0..<width * height {
        pixels += (0..<3).map { UInt8(samples[i * channels + $0]) }
        pixels.append(alpha ? UInt8(samples[i * channels + 3]) : 255)
    }
    return try! Image(width: width, height: height, pixels: pixels, hasAlpha: alpha)
}

@Suite("TIFF layouts: strips, tiles, separate planes, byte orders, BigTIFF and all eight orientations")
struct TIFFLayoutTests {
    private func rgbPage(width: Int = 37, height: Int = 29, alpha: Bool = false) -> TIFFWriter.Page {
        var page = TIFFWriter.Page(width: width, height: height, samplesPerPixel: alpha ? 4 : 3, photometric: 2,
                                   samples: patternSamples(width: width, height: height, alpha: alpha))
        if alpha { page.extraSamples = [2] }
        return page
    }

    @Test("strips of 5 rows, the last one short")
    func strips() throws {
        var page = rgbPage()
        page.rowsPerStrip = 5
        #expect(try decodeTIFF(TIFFWriter(pages: [page]).bytes()) == patternImage(width: 37, height: 29, alpha: false))
    }

    @Test("16×16 tiles with partial tiles at the right and bottom edges, contiguous and in separate planes", arguments: [1, 2])
    func tiles(planar: Int) throws {
        var page = rgbPage(alpha: true)
        page.tile = (16, 16)
        page.planar = planar
        #expect(try decodeTIFF(TIFFWriter(pages: [page]).bytes()) == patternImage(width: 37, height: 29, alpha: true))
    }

    @Test("separate planes in strips, with unassociated alpha")
    func separatePlanes() throws {
        var page = rgbPage(alpha: true)
        page.planar = 2
        page.rowsPerStrip = 8
        #expect(try decodeTIFF(TIFFWriter(pages: [page]).bytes()) == patternImage(width: 37, height: 29, alpha: true))
    }

    @Test("associated (premultiplied) alpha is made straight, at 8 and 16 bits; an all-opaque alpha is reported opaque",
          arguments: [8, 16])
    func associatedAlpha(bits: Int) throws {
        let scale: UInt64 = bits == 8 ? 1 : 257
        // Straight (200, 100, 50) at alpha 128, stored premultiplied: (100, 50, 25); then opaque white.
        var page = TIFFWriter.Page(width: 2, height: 1, bitsPerSample: bits, samplesPerPixel: 4, photometric: 2,
                                   samples: [100, 50, 25, 128, 255, 255, 255, 255].map { $0 * scale })
        page.extraSamples = [1]
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        let p = image.pixel(x: 0, y: 0)
        #expect(abs(Int(p.r) - 199) <= 1 && abs(Int(p.g) - 100) <= 1 && abs(Int(p.b) - 50) <= 1 && p.a == 128, "\(p)")
        #expect(image.hasAlpha)
        var opaque = TIFFWriter.Page(width: 1, height: 1, samplesPerPixel: 2, photometric: 1, samples: [77, 255])
        opaque.extraSamples = [1]
        let grey = try decodeTIFF(TIFFWriter(pages: [opaque]).bytes())
        #expect(!grey.hasAlpha && grey.pixel(x: 0, y: 0) == RGBA(r: 77, g: 77, b: 77))
    }

    @Test("BigTIFF, little- and big-endian, probes and decodes", arguments: [false, true])
    func bigTIFF(bigEndian: Bool) throws {
        var page = rgbPage()
        page.rowsPerStrip = 7
        let file = TIFFWriter(pages: [page], bigEndian: bigEndian, bigTIFF: true).bytes()
        let header = try ImageProbe.probe(file)
        #expect(header.format == .tiff && header.size == PixelSize(width: 37, height: 29))
        #expect(try decodeTIFF(file) == patternImage(width: 37, height: 29, alpha: false))
    }

    @Test("every orientation is applied from the page's own tag; appliesOrientation false keeps the stored raster",
          arguments: 1...8)
    func orientation(value: Int) throws {
        var page = rgbPage(width: 7, height: 4)
        page.orientation = value
        let file = TIFFWriter(pages: [page]).bytes()
        let stored = patternImage(width: 7, height: 4, alpha: false)
        let header = try ImageProbe.probe(file)
        #expect(header.orientation == Orientation(exifValue: value))
        #expect(try decodeTIFF(file) == stored.applying(Orientation(exifValue: value)))
        #expect(try decodeTIFF(file, options: DecodeOptions(appliesOrientation: false)) == stored)
    }

    @Test("a bilevel page turned by its orientation tag is turned once (the libgd path turned it twice)")
    func bilevelOrientation() throws {
        let bits: [UInt64] = [1, 0, 0, 0, 0, 0]  // 3×2, white top-left
        var page = TIFFWriter.Page(width: 3, height: 2, bitsPerSample: 1, photometric: 1, samples: bits)
        page.orientation = 8  // rotate 90° clockwise to view… stored top-left ends bottom-left
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        #expect(image.size == PixelSize(width: 2, height: 3))
        let expected = try Image(width: 3, height: 2, pixels: bits.flatMap { $0 == 1 ? [255, 255, 255, 255] : [0, 0, 0, 255] }, hasAlpha: false)
            .applying(Orientation(exifValue: 8))
        #expect(image == expected)
    }
}
