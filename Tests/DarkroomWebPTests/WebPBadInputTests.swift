import DarkroomCore
import DarkroomTestSupport
import DarkroomWebP
import Testing

// MARK: - Bad input

@Suite("Broken WebP data is a clear error, never a partial image or a crash")
struct WebPBadInputTests {
    private let header = ImageHeader(format: .webp, width: 64, height: 48)

    @Test("empty input is refused")
    func empty() {
        #expect(throws: DarkroomError.emptyInput) {
            try WebPDecoder().decode([], header: header, options: DecodeOptions())
        }
    }

    @Test("a file cut in half is reported as truncated", arguments: ["gradient-lossy.webp", "gradient-lossless.webp"])
    func truncated(name: String) throws {
        let whole = Fixtures.bytes(name)
        let half = Array(whole[..<(whole.count / 2)])
        let error = try #require(throws: DarkroomError.self) {
            try WebPDecoder().decode(half, header: header, options: DecodeOptions())
        }
        guard case .truncated(.webp, _) = error else {
            Issue.record("expected .truncated(.webp, …), got \(error)")
            return
        }
    }

    @Test("a file cut anywhere never decodes", arguments: ["gradient-lossy.webp", "gradient-lossless.webp"])
    func truncatedEverywhere(name: String) throws {
        let whole = Fixtures.bytes(name)
        for cut in 1..<whole.count {
            #expect(throws: DarkroomError.self, "cut at byte \(cut)") {
                try WebPDecoder().decode(Array(whole[..<cut]), header: header, options: DecodeOptions())
            }
        }
    }

    @Test("a 16384×16384 lossless header is refused as too many pixels before anything is allocated")
    func bomb() throws {
        // A VP8L header (signature 0x2F, 14-bit width−1 and height−1) followed by a few bytes of nothing.
        let size: UInt32 = 16383 | 16383 << 14
        let vp8l = [0x2F] + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + [UInt8](repeating: 0, count: 27)
        let chunk = WebPContainer.chunk("VP8L", vp8l)
        let body = Array("WEBP".utf8) + chunk
        let file = Array("RIFF".utf8) + [UInt8(body.count), 0, 0, 0] + body
        let expected = DarkroomError.tooManyPixels(width: 16384, height: 16384, limit: DecodeLimits.defaultMaxPixels)
        #expect(throws: expected) { try decodeWebP(file) }
        // The decoder reads the size itself even when the caller's header is wrong.
        #expect(throws: expected) { try WebPDecoder().decode(file, header: header, options: DecodeOptions()) }
    }

    @Test("caller limits are honoured")
    func limits() {
        let bytes = Fixtures.bytes("gradient-lossy.webp")
        #expect(throws: DarkroomError.tooManyPixels(width: 64, height: 48, limit: 1000)) {
            try decodeWebP(bytes, options: DecodeOptions(limits: DecodeLimits(maxPixels: 1000)))
        }
    }

    @Test("bytes that are not WebP are refused")
    func notWebP() {
        #expect(throws: DarkroomError.self) {
            try WebPDecoder().decode(Fixtures.bytes("gradient-rgba.png"), header: header, options: DecodeOptions())
        }
    }

    @Test("random byte flips never crash and never return a wrongly sized image")
    func randomFlips() throws {
        var generator = SeededGenerator(seed: 0x5EED_0002)
        let photo = try encodeWebP(Pattern.photo(width: 48, height: 40), quality: 70)
        for original in [Fixtures.bytes("gradient-lossy.webp"), Fixtures.bytes("gradient-lossless.webp"), photo] {
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 12..<bytes.count, using: &generator)
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
                if let image = try? WebPDecoder().decode(bytes, header: header, options: DecodeOptions()) {
                    #expect(image.pixels.count == image.width * image.height * 4)
                }
            }
        }
    }
}
