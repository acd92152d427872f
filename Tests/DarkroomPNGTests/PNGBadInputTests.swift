import DarkroomCore
import DarkroomPNG
import DarkroomTestSupport
import Testing

// MARK: - Bad input

@Suite("Broken PNG data is a clear error, never a partial image or a crash")
struct PNGBadInputTests {
    private let header = ImageHeader(format: .png, width: 64, height: 48)

    @Test("empty input is refused")
    func empty() {
        #expect(throws: DarkroomError.emptyInput) {
            try PNGDecoder().decode([], header: header, options: DecodeOptions())
        }
    }

    @Test("a file cut in half is reported as truncated")
    func truncated() throws {
        let whole = Fixtures.bytes("gradient-rgba.png")
        let half = Array(whole[..<(whole.count / 2)])
        let error = try #require(throws: DarkroomError.self) { try decodePNG(half) }
        guard case .truncated(.png, let detail) = error else {
            Issue.record("expected .truncated(.png, …), got \(error)")
            return
        }
        #expect(detail.contains("ends at byte \(half.count)"))
    }

    @Test("a file cut anywhere before the end of its image data never decodes; after it, the image is whole")
    func truncatedEverywhere() throws {
        let whole = Fixtures.bytes("gradient-rgba.png")
        let idat = try #require(pngChunkOffset(whole, type: "IDAT"))
        let idatLength = Int(whole[idat + 2]) << 8 | Int(whole[idat + 3])
        let pixelDataEnd = idat + 12 + idatLength  // the last IDAT's CRC included
        #expect(pngChunkOffset(whole, type: "tEXt") == pixelDataEnd)  // text chunks follow the pixels
        for cut in 1..<whole.count {
            let bytes = Array(whole[..<cut])
            if cut < pixelDataEnd {
                // The signature, a header, pixel data or a CRC is missing.
                #expect(throws: DarkroomError.self, "cut at byte \(cut)") {
                    try PNGDecoder().decode(bytes, header: header, options: DecodeOptions())
                }
            } else {
                // Only trailing text chunks or IEND are missing: every pixel is there and checked.
                let image = try PNGDecoder().decode(bytes, header: header, options: DecodeOptions())
                #expect(image == Pattern.gradient(alpha: true), "cut at byte \(cut)")
            }
        }
    }

    @Test("a flipped CRC byte in IHDR or IDAT is reported as corrupt", arguments: ["IHDR", "IDAT"])
    func flippedCRC(chunk: String) throws {
        var bytes = Fixtures.bytes("gradient-rgba.png")
        let offset = try #require(pngChunkOffset(bytes, type: chunk))
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
        bytes[offset + 8 + length] ^= 0x01  // first CRC byte
        #expect(throws: DarkroomError.corrupt(.png, detail: "\(chunk): CRC error")) {
            try PNGDecoder().decode(bytes, header: header, options: DecodeOptions())
        }
    }

    @Test("damaged compressed image data under a valid chunk CRC is refused, wherever the damage is", arguments: [8, 2, 3])
    func damagedImageData(position: Int) throws {
        var bytes = Fixtures.bytes("gradient-rgba.png")
        let offset = try #require(pngChunkOffset(bytes, type: "IDAT"))
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
        bytes[offset + 8 + length / position] ^= 0xFF  // inside the deflate stream
        let crc = PNGFileBuilder.crc32(Array(bytes[(offset + 4)..<(offset + 8 + length)]))
        for k in 0..<4 { bytes[offset + 8 + length + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
        let error = try #require(throws: DarkroomError.self) {
            try PNGDecoder().decode(bytes, header: header, options: DecodeOptions())
        }
        guard case .corrupt(.png, _) = error else {
            Issue.record("expected .corrupt(.png, …), got \(error)")
            return
        }
    }

    @Test("image data that goes on past the image (which libpng only warns about) is refused at fail-on = warning")
    func imageDataPastTheEnd() throws {
        // Five rows of data under a header that says four.
        let rows: [[UInt8]] = (0..<5).map { (y: Int) -> [UInt8] in
            (0..<8).flatMap { (x: Int) -> [UInt8] in [UInt8(x * 30), UInt8(y * 50), 128] }
        }
        var bytes = PNGFileBuilder(width: 8, height: 5, bitDepth: 8, colorType: 2).file(rows: rows)
        let ihdr = try #require(pngChunkOffset(bytes, type: "IHDR"))
        bytes[ihdr + 8 + 7] = 4  // height
        let crc = PNGFileBuilder.crc32(Array(bytes[(ihdr + 4)..<(ihdr + 8 + 13)]))
        for k in 0..<4 { bytes[ihdr + 8 + 13 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
        let error = try #require(throws: DarkroomError.self) {
            try PNGDecoder().decode(bytes, header: ImageHeader(format: .png, width: 8, height: 4), options: DecodeOptions())
        }
        #expect(error.description.hasPrefix("corrupt PNG data: damaged image data (IDAT: "), "\(error)")
        // Below fail-on = warning it is decoded, with the warning reported.
        let log = DecodeWarningLog()
        let image = try PNGDecoder().decode(
            bytes, header: ImageHeader(format: .png, width: 8, height: 4), options: DecodeOptions(failOn: .error, warnings: log.handler))
        #expect(image.size == PixelSize(width: 8, height: 4))
        #expect(image.pixel(x: 1, y: 3) == RGBA(r: 30, g: 150, b: 128, a: 255))
        #expect(log.warnings.map(\.damage) == [.warning])
        #expect(log.warnings.first?.detail.hasPrefix("IDAT: ") == true)
    }

    @Test("a 40000×40000 header is refused as too many pixels before anything is allocated")
    func bomb() throws {
        let bytes = Fixtures.bytes("bomb-40000.png")
        let limit = DecodeLimits.defaultMaxPixels
        #expect(throws: DarkroomError.tooManyPixels(width: 40000, height: 40000, limit: limit)) {
            try decodePNG(bytes)
        }
        // Even when the caller passes a header that lies, the decoder checks the file's IHDR.
        #expect(throws: DarkroomError.tooManyPixels(width: 40000, height: 40000, limit: limit)) {
            try PNGDecoder().decode(bytes, header: header, options: DecodeOptions())
        }
    }

    @Test("caller limits are honoured: pixels and input size")
    func limits() throws {
        let bytes = Fixtures.bytes("gradient-rgba.png")
        let fewPixels = DecodeOptions(limits: DecodeLimits(maxPixels: 64 * 48 - 1))
        #expect(throws: DarkroomError.tooManyPixels(width: 64, height: 48, limit: 64 * 48 - 1)) {
            try decodePNG(bytes, options: fewPixels)
        }
        let fewBytes = DecodeOptions(limits: DecodeLimits(maxInputBytes: 100))
        #expect(throws: DarkroomError.inputTooLarge(byteCount: bytes.count, limit: 100)) {
            try decodePNG(bytes, options: fewBytes)
        }
        // A dimension above the pixel limit is refused by libpng itself (png_set_user_limits),
        // even when the caller's header claims a tiny image.
        let tall = try encodePNG(Pattern.gradient(width: 1, height: 300))
        let narrowLimit = DecodeOptions(limits: DecodeLimits(maxPixels: 299))
        #expect(throws: DarkroomError.tooManyPixels(width: 1, height: 300, limit: 299)) {
            try PNGDecoder().decode(tall, header: ImageHeader(format: .png, width: 1, height: 1), options: narrowLimit)
        }
    }

    @Test("bytes that are not PNG at all are refused")
    func notPNG() {
        #expect(throws: DarkroomError.self) {
            try PNGDecoder().decode(Fixtures.bytes("gradient.jpg"), header: header, options: DecodeOptions())
        }
    }

    @Test("random byte flips never crash and never return a wrongly sized image")
    func randomFlips() {
        var generator = SeededGenerator(seed: 0x5EED_0001)
        for name in ["gradient-rgba.png", "blocks-palette.png", "gradient-rgba16.png"] {
            let original = Fixtures.bytes(name)
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 8..<bytes.count, using: &generator)
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
                // Either a clean error or a full image of the size IHDR claims.
                if let image = try? PNGDecoder().decode(bytes, header: header, options: DecodeOptions()) {
                    #expect(image.pixels.count == image.width * image.height * 4)
                }
            }
        }
    }
}
