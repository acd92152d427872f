import Darkroom
import DarkroomCore
import DarkroomTestSupport
import DarkroomTIFF
import Testing

// MARK: - Colour models

@Suite("TIFF colour models: palette, RGB, CMYK, CIELab, ICCLab and subsampled YCbCr")
struct TIFFColourModelTests {
    /// A 2^bits-entry colour map (R…, G…, B…) with entry i = (i·4096, 65535 − i·4096, 0x8080).
    private func colourMap(bits: Int) -> [Int] {
        let n = 1 << bits
        let red = (0..<n).map { min(65535, $0 * 4096) }, green = (0..<n).map { max(0, 65535 - $0 * 4096) }
        return red + green + Array(repeating: 0x8080, count: n)
    }

    @Test("palette at 4 and 8 bits: 16-bit map entries are scaled to 8 bits", arguments: [4, 8])
    func palette(bits: Int) throws {
        var page = TIFFWriter.Page(width: 3, height: 1, bitsPerSample: bits, photometric: 3, samples: [0, 1, 15])
        page.extraTags[320] = .shorts(colourMap(bits: bits))
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        #expect(image.pixel(x: 0, y: 0) == RGBA(r: 0, g: 255, b: 128))
        #expect(image.pixel(x: 1, y: 0) == RGBA(r: 16, g: 239, b: 128))
        #expect(image.pixel(x: 2, y: 0) == RGBA(r: 239, g: 16, b: 128))
    }

    @Test("a colour map holding 8-bit values is read as 8-bit, as libtiff does")
    func eightBitMap() throws {
        var page = TIFFWriter.Page(width: 2, height: 1, bitsPerSample: 1, photometric: 3, samples: [0, 1])
        page.extraTags[320] = .shorts([10, 200, 20, 210, 30, 220])
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        #expect(image.pixel(x: 0, y: 0) == RGBA(r: 10, g: 20, b: 30))
        #expect(image.pixel(x: 1, y: 0) == RGBA(r: 200, g: 210, b: 220))
    }

    @Test("RGB at 8 and 16 bits", arguments: [8, 16])
    func rgb(bits: Int) throws {
        let scale: UInt64 = bits == 8 ? 1 : 257
        let samples: [UInt64] = [255, 0, 0, 0, 128, 255].map { $0 * scale }
        let page = TIFFWriter.Page(width: 2, height: 1, bitsPerSample: bits, samplesPerPixel: 3, photometric: 2, samples: samples)
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        #expect(image.pixel(x: 0, y: 0) == RGBA(r: 255, g: 0, b: 0))
        #expect(image.pixel(x: 1, y: 0) == RGBA(r: 0, g: 128, b: 255))
    }

    @Test("CMYK without a profile: R = (1 − C)(1 − K), at 8 and 16 bits", arguments: [8, 16])
    func cmyk(bits: Int) throws {
        let scale: UInt64 = bits == 8 ? 1 : 257
        let samples: [UInt64] = [255, 0, 0, 0, /**/ 0, 0, 0, 255, /**/ 0, 0, 0, 0, /**/ 0, 128, 255, 0].map { $0 * scale }
        let page = TIFFWriter.Page(width: 4, height: 1, bitsPerSample: bits, samplesPerPixel: 4, photometric: 5, samples: samples)
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        #expect(image.pixel(x: 0, y: 0) == RGBA(r: 0, g: 255, b: 255))
        #expect(image.pixel(x: 1, y: 0) == RGBA(r: 0, g: 0, b: 0))
        #expect(image.pixel(x: 2, y: 0) == RGBA(r: 255, g: 255, b: 255))
        #expect(image.pixel(x: 3, y: 0) == RGBA(r: 255, g: 127, b: 0))
    }

    @Test("CMYK with an embedded CMYK profile converts through the profile; with alpha, or profiles ignored, by the formula")
    func cmykProfile() throws {
        // A profile in which only K darkens (L* = 100 · (1 − K)): cyan ink alone stays white.
        let profile = LookupBytes.profile(space: "CMYK", pcs: "Lab ", a2b0: LookupBytes.mft2(channels: 4, points: 2) { d in
            LookupBytes.lab16(100 * (1 - d[3]), 0, 0)
        })
        var page = TIFFWriter.Page(width: 2, height: 1, samplesPerPixel: 4, photometric: 5, samples: [255, 0, 0, 0, 0, 0, 0, 255])
        page.extraTags[34675] = .undefined(profile)
        let converted = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        #expect(converted.pixel(x: 0, y: 0) == RGBA(r: 255, g: 255, b: 255))
        #expect(converted.pixel(x: 1, y: 0).r <= 2)
        let ignored = try decodeTIFF(TIFFWriter(pages: [page]).bytes(), options: DecodeOptions(colorProfiles: .ignore))
        #expect(ignored.pixel(x: 0, y: 0) == RGBA(r: 0, g: 255, b: 255))
        var withAlpha = TIFFWriter.Page(width: 1, height: 1, samplesPerPixel: 5, photometric: 5, samples: [255, 0, 0, 0, 128])
        withAlpha.extraSamples = [2]
        withAlpha.extraTags[34675] = .undefined(profile)
        #expect(try decodeTIFF(TIFFWriter(pages: [withAlpha]).bytes()).pixel(x: 0, y: 0) == RGBA(r: 0, g: 255, b: 255, a: 128))
    }

    @Test("separated images with other inks than CMYK are refused by name")
    func otherInks() throws {
        let page = TIFFWriter.Page(width: 1, height: 1, samplesPerPixel: 2, photometric: 5, samples: [0, 0])
        #expect(throws: DarkroomError.unsupportedFormat(.tiff, reason: "separated (ink) images with 2 inks other than CMYK are not supported")) {
            try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        }
    }

    /// sRGB red, green and blue, and white, black and mid-grey as D65 L*a*b*.
    private let labSwatches: [(lab: (Double, Double, Double), rgb: RGBA)] = [
        ((53.24, 80.09, 67.20), RGBA(r: 255, g: 0, b: 0)),
        ((87.73, -86.18, 83.18), RGBA(r: 0, g: 255, b: 0)),
        ((32.30, 79.19, -107.86), RGBA(r: 0, g: 0, b: 255)),
        ((100, 0, 0), RGBA(r: 255, g: 255, b: 255)),
        ((0, 0, 0), RGBA(r: 0, g: 0, b: 0)),
        ((53.39, 0, 0), RGBA(r: 128, g: 128, b: 128)),
    ]

    /// A page of the swatches in `photometric` 8 (CIELab) or 9 (ICCLab) at `bits`, with a D65 white point.
    private func labPage(photometric: Int, bits: Int) -> TIFFWriter.Page {
        var samples: [UInt64] = []
        for (lab, _) in labSwatches {
            let range = bits == 8 ? 255.0 : 65535.0, step = bits == 8 ? 1.0 : 256.0
            samples.append(UInt64((lab.0 / 100 * range).rounded()))
            for v in [lab.1, lab.2] {
                let stored = photometric == 8 ? (v * step).rounded() : ((v + 128) * step).rounded()
                samples.append(UInt64(bitPattern: Int64(stored)) & (bits == 8 ? 0xFF : 0xFFFF))
            }
        }
        var page = TIFFWriter.Page(width: labSwatches.count, height: 1, bitsPerSample: bits, samplesPerPixel: 3,
                                   photometric: photometric, sampleFormat: photometric == 8 ? 2 : 1, samples: samples)
        if photometric == 8 { page.sampleFormat = 1 }  // CIELab's a*, b* are signed whatever SampleFormat says
        page.extraTags[318] = .rationals([(3127, 10000), (3290, 10000)])  // WhitePoint D65
        return page
    }

    @Test("CIELab and ICCLab at 8 and 16 bits come out as the sRGB colours they name (D65 white point)",
          arguments: [(8, 8), (8, 16), (9, 8), (9, 16)])
    func lab(photometric: Int, bits: Int) throws {
        let image = try decodeTIFF(TIFFWriter(pages: [labPage(photometric: photometric, bits: bits)]).bytes())
        for (x, swatch) in labSwatches.enumerated() {
            let p = image.pixel(x: x, y: 0)
            let error = max(abs(Int(p.r) - Int(swatch.rgb.r)), abs(Int(p.g) - Int(swatch.rgb.g)), abs(Int(p.b) - Int(swatch.rgb.b)))
            // 8-bit a* and b* are whole numbers: green, on the gamut's edge, moves by up to 7 levels.
            #expect(error <= (bits == 8 ? 8 : 3), "swatch \(x): \(p), expected \(swatch.rgb)")
        }
    }

    @Test("CIELab without a white point is D50, Bradford-adapted: L* 100 is still white")
    func labDefaultWhite() throws {
        var page = labPage(photometric: 8, bits: 8)
        page.extraTags[318] = nil
        let white = try decodeTIFF(TIFFWriter(pages: [page]).bytes()).pixel(x: 3, y: 0)
        #expect(white.r >= 254 && white.g >= 254 && white.b >= 254, "\(white)")
    }

    @Test("ITU L*a*b* is refused by name")
    func ituLab() throws {
        let page = TIFFWriter.Page(width: 1, height: 1, samplesPerPixel: 3, photometric: 10, samples: [0, 0, 0])
        #expect(throws: DarkroomError.unsupportedFormat(.tiff, reason: "ITU L*a*b* (PhotometricInterpretation 10) is not supported")) {
            try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        }
    }

    @Test("old-style JPEG (compression 6, a whole JPEG stream at JPEGInterchangeFormat) goes through libtiff's RGBA reader")
    func oldStyleJPEG() throws {
        let picture = Pattern.photo(width: 64, height: 48)
        let jpeg = try Registry.standard.encode(picture, options: EncodeOptions(format: .jpeg, quality: 95))
        let reference = try Registry.standard.decode(jpeg)
        var page = TIFFWriter.Page(width: 64, height: 48, samplesPerPixel: 3, photometric: 6, samples: [])
        page.rawStrips = [jpeg]
        page.extraTags[259] = .shorts([6])
        page.extraTags[513] = .offsetOfFirstChunk
        page.extraTags[514] = .longs([jpeg.count])
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        #expect(image.size == picture.size)
        let error = ImageComparison.meanAbsoluteError(image, reference, includeAlpha: false)
        #expect(error < 3, "MAE \(error) against libjpeg-turbo's decode of the same stream")
    }

    @Test("subsampled YCbCr (2×2, uncompressed) goes through libtiff's RGBA reader")
    func subsampledYCbCr() throws {
        // A 4×2 image: two 2×2 blocks, each Y00 Y01 Y10 Y11 Cb Cr. Left: grey Y = 128; right: Y = 76,
        // Cb = 85, Cr = 255 (sRGB red in BT.601 full range).
        var page = TIFFWriter.Page(width: 4, height: 2, samplesPerPixel: 3, photometric: 6, samples: [])
        page.rawStrips = [[128, 128, 128, 128, 128, 128, 76, 76, 76, 76, 85, 255]]
        page.extraTags[530] = .shorts([2, 2])
        page.extraTags[532] = .rationals([(0, 1), (255, 1), (128, 1), (255, 1), (128, 1), (255, 1)])
        let image = try decodeTIFF(TIFFWriter(pages: [page]).bytes())
        #expect(image.pixel(x: 0, y: 1) == RGBA(r: 128, g: 128, b: 128))
        let red = image.pixel(x: 3, y: 1)
        #expect(red.r >= 250 && red.g <= 5 && red.b <= 5, "\(red)")
    }
}
