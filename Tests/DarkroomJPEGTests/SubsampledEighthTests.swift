import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - DC scans only, with subsampled chroma

@Suite("Progressive 4:2:0 JPEGs at 1/8 are decoded from their DC scans alone")
struct SubsampledEighthTests {
    static func eighth(of size: PixelSize) -> DecodeOptions {
        DecodeOptions(sizeHint: PixelSize(width: (size.width + 7) / 8, height: (size.height + 7) / 8))
    }

    /// `Pattern.photo` with every pixel made grey (R = G = B = its luma), so that the chroma
    /// planes are flat and only the luma path is compared.
    static func grey(_ size: PixelSize) throws -> Image {
        let photo = Pattern.photo(width: size.width, height: size.height)
        var pixels = photo.pixels
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let luma = (299 * Int(pixels[i]) + 587 * Int(pixels[i + 1]) + 114 * Int(pixels[i + 2]) + 500) / 1000
            pixels[i] = UInt8(luma); pixels[i + 1] = UInt8(luma); pixels[i + 2] = UInt8(luma)
        }
        return try Image(width: size.width, height: size.height, pixels: pixels, hasAlpha: false)
    }

    @Test("luma is exactly libjpeg's 1/8 (flat chroma gives identical pixels), at any size", arguments: [
        PixelSize(width: 800, height: 600), PixelSize(width: 803, height: 597),
        PixelSize(width: 17, height: 9), PixelSize(width: 9, height: 1),
    ])
    func lumaIsExact(size: PixelSize) throws {
        let bytes = try JPEGTesting.encode(Self.grey(size), quality: 75, progressive: true)
        #expect(JPEGTesting.lumaSampling(bytes)! == (2, 2))
        let early = try JPEGTesting.decode(bytes: bytes, options: Self.eighth(of: size))
        let exact = try JPEGTesting.decode(bytes: bytes, options: Self.eighth(of: size), decoder: JPEGDecoder(tuning: .exact))
        #expect(early.size == exact.size)
        #expect(ImageComparison.maxAbsoluteError(early, exact) == 0)
    }

    @Test("colour stays close to libjpeg's 1/8, which also reads the chroma's first AC coefficients", arguments: [
        PixelSize(width: 800, height: 600), PixelSize(width: 803, height: 597),
    ])
    func colourIsClose(size: PixelSize) throws {
        let bytes = try JPEGTesting.encode(Pattern.photo(width: size.width, height: size.height), quality: 75, progressive: true)
        let early = try JPEGTesting.decode(bytes: bytes, options: Self.eighth(of: size))
        let exact = try JPEGTesting.decode(bytes: bytes, options: Self.eighth(of: size), decoder: JPEGDecoder(tuning: .exact))
        #expect(early.size == exact.size)
        let psnr = ImageComparison.psnr(early, exact)
        #expect(psnr > 42, "\(psnr) dB")
    }

    @Test("no AC scan is read: garbage in any of them changes nothing at 1/8")
    func skipsEveryACScan() throws {
        let size = PixelSize(width: 800, height: 600)
        let bytes = try JPEGTesting.encode(Pattern.photo(width: size.width, height: size.height), quality: 75, progressive: true)
        let scans = JPEGTesting.scanDataRanges(bytes)
        // The scan header ends with Ss, Se, Ah/Al: Ss > 0 is an AC scan.
        let acScans = scans.filter { bytes[$0.lowerBound - 3] > 0 }
        #expect(scans.count == 10 && acScans.count == 8)  // libjpeg's standard script
        var damaged = bytes
        var generator = SeededGenerator(state: 11)
        for scan in acScans {
            for i in scan { damaged[i] = UInt8.random(in: 0...0xFE, using: &generator) }
        }
        let options = Self.eighth(of: size)
        #expect(try JPEGTesting.decode(bytes: damaged, options: options) == JPEGTesting.decode(bytes: bytes, options: options))
    }

    @Test("a damaged DC scan still throws rather than returning wrong pixels")
    func damagedDCScanThrows() throws {
        let size = PixelSize(width: 800, height: 600)
        let bytes = try JPEGTesting.encode(Pattern.photo(width: size.width, height: size.height), quality: 75, progressive: true)
        let first = JPEGTesting.scanDataRanges(bytes)[0]
        let cut = Array(bytes[..<(first.lowerBound + first.count / 2)])
        #expect(throws: DarkroomError.self) { try JPEGTesting.decode(bytes: cut, options: Self.eighth(of: size)) }
    }
}
