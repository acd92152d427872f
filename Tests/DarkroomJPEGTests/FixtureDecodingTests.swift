import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - Decoding the committed fixtures

@Suite("JPEG fixtures decode to the gradient they were made from")
struct FixtureDecodingTests {
    @Test("the decoder names libjpeg-turbo and takes only JPEG headers")
    func identity() {
        let decoder = JPEGDecoder()
        #expect(decoder.name == "libjpeg-turbo")
        #expect(decoder.canDecode(ImageHeader(format: .jpeg, width: 1, height: 1), options: DecodeOptions()))
        #expect(!decoder.canDecode(ImageHeader(format: .png, width: 1, height: 1), options: DecodeOptions()))
    }

    @Test("baseline and progressive gradients decode full size close to the formula", arguments: [
        "gradient.jpg", "gradient-progressive.jpg",
    ])
    func gradient(name: String) throws {
        let image = try JPEGTesting.decode(name)
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(!image.hasAlpha)
        let error = ImageComparison.meanAbsoluteError(image, Pattern.gradient(), includeAlpha: false)
        #expect(error < 1, "gradient MAE \(error)")
        #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
    }

    @Test("greyscale JPEG expands to equal RGB channels")
    func greyscale() throws {
        let image = try JPEGTesting.decode(bytes: EmbeddedJPEGs.grey)
        let expected = Image(width: 64, height: 48, hasAlpha: false) { p in
            for y in 0..<48 {
                for x in 0..<64 {
                    let i = (y * 64 + x) * 4
                    p[i] = UInt8(4 * x); p[i + 1] = UInt8(4 * x); p[i + 2] = UInt8(4 * x); p[i + 3] = 255
                }
            }
        }
        let error = ImageComparison.meanAbsoluteError(image, expected, includeAlpha: true)
        #expect(error < 1, "grey MAE \(error)")
    }

    @Test("Adobe YCCK/CMYK JPEG converts back to the RGB gradient")
    func cmyk() throws {
        let image = try JPEGTesting.decode(bytes: EmbeddedJPEGs.cmyk)
        #expect(image.size == PixelSize(width: 64, height: 48))
        let error = ImageComparison.meanAbsoluteError(image, Pattern.gradient(), includeAlpha: true)
        #expect(error < 1.5, "CMYK MAE \(error)")
    }
}

// MARK: - Tuning

@Suite("Fast chroma upsampling stays close to the default decode")
struct TuningTests {
    @Test("4:2:0 photo decoded with fast upsampling stays above 45 dB PSNR against fancy upsampling")
    func fastUpsampling() throws {
        let bytes = try JPEGTesting.encode(Pattern.photo(width: 256, height: 192), quality: 80)
        #expect(JPEGTesting.lumaSampling(bytes)! == (2, 2))
        let fancy = try JPEGTesting.decode(bytes: bytes)
        let fast = try JPEGTesting.decode(bytes: bytes, decoder: JPEGDecoder(tuning: .init(fastUpsampling: true)))
        #expect(fast.size == fancy.size)
        #expect(fast != fancy)
        let psnr = ImageComparison.psnr(fast, fancy)
        #expect(psnr > 45, "\(psnr) dB")
    }
}

// MARK: - EXIF orientation

@Suite("EXIF orientation turns every JPEG fixture upright unless told not to")
struct OrientationTests {
    @Test("all eight orientations come out upright as the gradient", arguments: 1...8)
    func upright(value: Int) throws {
        let image = try JPEGTesting.decode("orientation-\(value).jpg")
        #expect(image.size == PixelSize(width: 64, height: 48))
        let error = ImageComparison.meanAbsoluteError(image, Pattern.gradient(), includeAlpha: false)
        #expect(error < 1, "orientation \(value): MAE \(error)")
    }

    @Test("appliesOrientation = false returns the stored pixels", arguments: 1...8)
    func stored(value: Int) throws {
        let bytes = Fixtures.bytes("orientation-\(value).jpg")
        let header = try ImageProbe.probe(bytes)
        let stored = try JPEGDecoder().decode(bytes, header: header, options: DecodeOptions(appliesOrientation: false))
        #expect(stored.size == header.size)
        #expect(stored.size == (value >= 5 ? PixelSize(width: 48, height: 64) : PixelSize(width: 64, height: 48)))
        let upright = try JPEGDecoder().decode(bytes, header: header, options: DecodeOptions())
        #expect(stored.applying(header.orientation) == upright)
    }
}
