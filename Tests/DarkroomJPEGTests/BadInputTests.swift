import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Testing

// MARK: - Bad input

@Suite("Bad JPEG input throws a clear error and never crashes or returns a partial image")
struct BadInputTests {
    static let claimedJPEG = ImageHeader(format: .jpeg, width: 64, height: 48)

    /// Decodes `bytes` as if a probe had said they are a 64×48 JPEG.
    static func decodeTrusting(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> Image {
        try JPEGDecoder().decode(bytes, header: claimedJPEG, options: options)
    }

    @Test("empty input is refused as empty")
    func empty() {
        #expect(throws: DarkroomError.emptyInput) { try Self.decodeTrusting(Fixtures.bytes("empty.jpg")) }
    }

    @Test("a lossless (SOF3) JPEG is unsupported, not corrupt")
    func lossless() throws {
        var bytes = Fixtures.bytes("gradient.jpg")
        let sof = try #require((2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 1] = 0xC3
        #expect { try Self.decodeTrusting(bytes) } throws: { error in
            guard case DarkroomError.unsupportedFormat(.jpeg, _) = error else { return false }
            return true
        }
    }

    @Test("a file cut in half throws truncated at every scale", arguments: [1, 2, 4, 8])
    func truncated(denominator: Int) throws {
        let bytes = Fixtures.bytes("truncated.jpg")
        let hint = JPEGDecoder.scaledSize(of: PixelSize(width: 64, height: 48), denominator: denominator)
        do {
            let image = try JPEGTesting.decode(bytes: bytes, options: DecodeOptions(sizeHint: hint))
            Issue.record("returned a \(image.size) image")
        } catch let DarkroomError.truncated(format, detail) {
            #expect(format == .jpeg)
            #expect(detail == "Premature end of JPEG file")
        }
    }

    @Test("HTML and random bytes are refused as not JPEG", arguments: ["html.jpg", "scrambled.jpg"])
    func notJPEG(name: String) {
        #expect(throws: DarkroomError.self) { try ImageProbe.probe(Fixtures.bytes(name)) }
        do {
            _ = try Self.decodeTrusting(Fixtures.bytes(name))
            Issue.record("decoded \(name)")
        } catch let DarkroomError.corrupt(format, detail) {
            #expect(format == .jpeg)
            #expect(detail.hasPrefix("Not a JPEG file"), "\(detail)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a frame header claiming 60000×60000 is refused by the limits before decoding")
    func bomb() throws {
        let bytes = JPEGTesting.settingFrameSize(of: Fixtures.bytes("gradient.jpg"), width: 60000, height: 60000)
        let header = try ImageProbe.probe(bytes)
        let tooMany = DarkroomError.tooManyPixels(width: 60000, height: 60000, limit: DecodeLimits.defaultMaxPixels)
        #expect(throws: tooMany) { try JPEGDecoder().decode(bytes, header: header, options: DecodeOptions()) }
        // A header that lies about the size does not get past the check on libjpeg's own reading.
        #expect(throws: tooMany) { try Self.decodeTrusting(bytes) }
        // Shrink-on-load does not bypass the limit either.
        let hinted = DecodeOptions(sizeHint: PixelSize(width: 100, height: 100))
        #expect(throws: tooMany) { try JPEGDecoder().decode(bytes, header: header, options: hinted) }
    }

    @Test("input over maxInputBytes is refused unread")
    func inputTooLarge() {
        var limits = DecodeLimits()
        limits.maxInputBytes = 100
        let bytes = Fixtures.bytes("gradient.jpg")
        #expect(throws: DarkroomError.inputTooLarge(byteCount: bytes.count, limit: 100)) {
            try Self.decodeTrusting(bytes, options: DecodeOptions(limits: limits))
        }
    }

    @Test("random byte flips in gradient.jpg throw or decode at the probed size, never crash")
    func byteFlips() {
        let original = Fixtures.bytes("gradient.jpg")
        var generator = SeededGenerator(state: 20261121)
        var decoded = 0, refused = 0
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let i = Int.random(in: 2..<bytes.count, using: &generator)
                bytes[i] ^= UInt8.random(in: 1...255, using: &generator)
            }
            guard let header = try? ImageProbe.probe(bytes) else { refused += 1; continue }
            do {
                let image = try JPEGDecoder().decode(bytes, header: header, options: DecodeOptions())
                #expect(image.size == header.uprightSize)
                decoded += 1
            } catch is DarkroomError {
                refused += 1
            } catch {
                Issue.record("not a DarkroomError: \(error)")
            }
        }
        #expect(decoded > 0 && refused > 0, "decoded \(decoded), refused \(refused)")
    }
}
