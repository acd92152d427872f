import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - Encoding

@Suite("The JPEG encoder writes JPEGs that decode back to the image")
struct EncoderTests {
    @Test("the encoder names libjpeg-turbo and writes JPEG")
    func identity() {
        #expect(JPEGEncoder().name == "libjpeg-turbo")
        #expect(JPEGEncoder().format == .jpeg)
    }

    @Test("a round trip at quality 95 stays close to the gradient")
    func roundTrip() throws {
        let bytes = try JPEGTesting.encode(Pattern.gradient(), quality: 95)
        let header = try ImageProbe.probe(bytes)
        #expect(header.format == .jpeg)
        #expect(header.size == PixelSize(width: 64, height: 48))
        let error = ImageComparison.meanAbsoluteError(try JPEGTesting.decode(bytes: bytes), Pattern.gradient())
        #expect(error < 1, "MAE \(error)")
    }

    @Test("higher quality means smaller error and more bytes")
    func qualityMatters() throws {
        let photo = Pattern.photo(width: 256, height: 192)
        let high = try JPEGTesting.encode(photo, quality: 95)
        let low = try JPEGTesting.encode(photo, quality: 30)
        let highError = ImageComparison.meanAbsoluteError(try JPEGTesting.decode(bytes: high), photo)
        let lowError = ImageComparison.meanAbsoluteError(try JPEGTesting.decode(bytes: low), photo)
        #expect(highError < 1.0, "q95 MAE \(highError)")
        #expect(lowError > highError * 2, "q30 MAE \(lowError) vs q95 MAE \(highError)")
        #expect(low.count < high.count)
    }

    @Test("progressive output is flagged progressive and decodes like baseline")
    func progressive() throws {
        let photo = Pattern.photo(width: 256, height: 192)
        let progressive = try JPEGTesting.encode(photo, quality: 85, progressive: true)
        let baseline = try JPEGTesting.encode(photo, quality: 85)
        #expect(try ImageProbe.probe(progressive).isProgressive)
        #expect(try !ImageProbe.probe(baseline).isProgressive)
        let a = try JPEGTesting.decode(bytes: progressive), b = try JPEGTesting.decode(bytes: baseline)
        #expect(ImageComparison.psnr(a, b) > 45)
    }

    @Test("optimize = false changes only the Huffman tables: the same pixels, more bytes; the options win over the encoder's default")
    func optimizesCoding() throws {
        let photo = Pattern.photo(width: 256, height: 192)
        let standard = EncodeOptions(format: .jpeg, quality: 80)
        let onePass = EncodeOptions(format: .jpeg, quality: 80, optimizesCoding: false)
        let optimized = try JPEGEncoder().encode(photo, options: standard)
        let unoptimized = try JPEGEncoder().encode(photo, options: onePass)
        #expect(unoptimized.count > optimized.count, "\(unoptimized.count) vs \(optimized.count) bytes")
        let a = try JPEGTesting.decode(bytes: optimized), b = try JPEGTesting.decode(bytes: unoptimized)
        #expect(a.pixels == b.pixels)
        // The encoder's own setting applies when the options do not say, and only then.
        #expect(try JPEGEncoder(optimizesCoding: false).encode(photo, options: standard) == unoptimized)
        let forced = EncodeOptions(format: .jpeg, quality: 80, optimizesCoding: true)
        #expect(try JPEGEncoder(optimizesCoding: false).encode(photo, options: forced) == optimized)
        #expect(onePass.identifier == "jpeg(optimize=false,progressive=false,quality=80)")
        #expect(forced.identifier == standard.identifier)
    }

    @Test("chroma is subsampled 4:2:0 below quality 90 and kept 4:4:4 from 90", arguments: [
        (30, 2), (89, 2), (90, 1), (100, 1),
    ])
    func chromaSubsampling(quality: Int, lumaFactor: Int) throws {
        let bytes = try JPEGTesting.encode(Pattern.gradient(), quality: quality)
        let sampling = try #require(JPEGTesting.lumaSampling(bytes))
        #expect(sampling == (lumaFactor, lumaFactor))
    }

    @Test("translucent pixels are flattened over white")
    func flattensOverWhite() throws {
        let translucent = Pattern.gradient(alpha: true)
        let decoded = try JPEGTesting.decode(bytes: JPEGTesting.encode(translucent, quality: 95))
        #expect(!decoded.hasAlpha)
        let error = ImageComparison.meanAbsoluteError(decoded, translucent.flattened(), includeAlpha: true)
        #expect(error < 1, "MAE \(error)")

        let clear = try Image(width: 16, height: 16, pixels: [UInt8](repeating: 0, count: 16 * 16 * 4))
        let white = try JPEGTesting.decode(bytes: JPEGTesting.encode(clear, quality: 90))
        #expect(white.pixels.allSatisfy { $0 >= 254 })
    }

    @Test("a 1×1 image encodes and decodes")
    func tiny() throws {
        let red = try Image(width: 1, height: 1, pixels: [255, 0, 0, 255], hasAlpha: false)
        let decoded = try JPEGTesting.decode(bytes: JPEGTesting.encode(red, quality: 95))
        #expect(decoded.size == PixelSize(width: 1, height: 1))
        #expect(decoded.pixel(x: 0, y: 0).r > 240 && decoded.pixel(x: 0, y: 0).g < 16)
    }
}

// MARK: - Encoder errors

@Suite("The JPEG encoder refuses what it cannot write with a clear error")
struct EncoderErrorTests {
    @Test("quality outside 1…100 is an invalid argument", arguments: [0, 101])
    func badQuality(quality: Int) {
        #expect(throws: DarkroomError.invalidArgument(name: "quality", value: String(quality), expected: "an integer 1…100")) {
            try JPEGEncoder().encode(Pattern.gradient(), options: EncodeOptions(format: .jpeg, quality: quality))
        }
    }

    @Test("options for another format are refused")
    func wrongFormat() {
        #expect(throws: DarkroomError.invalidArgument(name: "format", value: "png", expected: "jpeg")) {
            try JPEGEncoder().encode(Pattern.gradient(), options: EncodeOptions(format: .png))
        }
    }

    @Test("an image wider than JPEG's 65500 pixels fails with libjpeg's message")
    func tooWide() throws {
        let wide = Image(width: 70_000, height: 1, hasAlpha: false) { $0.initialize(repeating: 128) }
        do {
            _ = try JPEGEncoder().encode(wide, options: EncodeOptions(format: .jpeg))
            Issue.record("expected an error")
        } catch let DarkroomError.encodeFailed(format, detail) {
            #expect(format == .jpeg)
            #expect(detail.contains("65500"), "\(detail)")
        }
    }
}
