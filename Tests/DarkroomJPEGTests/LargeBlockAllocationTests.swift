import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - libjpeg's large blocks on huge pages

@Suite("Progressive JPEGs whose coefficient buffers take huge pages decode correctly")
struct LargeBlockAllocationTests {
    @Test("a 2000×1500 progressive 4:4:4 file (18 MB of coefficients) decodes at full size and at 1/4")
    func largeProgressive() throws {
        let source = Pattern.photo(width: 2000, height: 1500)
        let bytes = try JPEGTesting.encode(source, quality: 95, progressive: true)
        let full = try JPEGTesting.decode(bytes: bytes, decoder: JPEGDecoder(tuning: .exact))
        #expect(full.size == source.size)
        let psnr = ImageComparison.psnr(full, source)
        #expect(psnr > 35, "\(psnr) dB")
        // At 1/4 the whole-image coefficient buffer is still allocated (every scan is read).
        let quarter = try JPEGTesting.decode(
            bytes: bytes, options: DecodeOptions(sizeHint: PixelSize(width: 500, height: 375)),
            decoder: JPEGDecoder(tuning: .exact))
        #expect(quarter.size == PixelSize(width: 500, height: 375))
        #expect(ImageComparison.psnr(quarter, JPEGTesting.boxDownscale(full, by: 4)) > 30)
    }
}
