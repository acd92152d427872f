import DarkroomCore
import DarkroomGD
import DarkroomTestSupport
import Foundation
import Testing

@Suite("bad input gets a specific DarkroomError from the libgd decoder, quickly and silently")
struct BadInputTests {
    let decoder = GDDecoder()

    /// Decodes with a header saying `format`, as if the probe had been fooled.
    private func decode(_ bytes: [UInt8], as format: ImageFormat) throws -> Image {
        try decoder.decode(bytes, header: ImageHeader(format: format, width: 64, height: 48), options: DecodeOptions())
    }

    @Test("empty input")
    func empty() {
        #expect(throws: DarkroomError.emptyInput) { try decoder.decode(Fixtures.bytes("empty.jpg")) }
        #expect(throws: DarkroomError.emptyInput) { try decode([], as: .jpeg) }
    }

    @Test("a JPEG cut in half is truncated, not half grey")
    func truncatedJPEG() {
        let error = #expect(throws: DarkroomError.self) { try decoder.decode(Fixtures.bytes("truncated.jpg")) }
        guard case .truncated(.jpeg, let detail)? = error else {
            Issue.record("expected .truncated(.jpeg, …), got \(String(describing: error))")
            return
        }
        #expect(detail.contains("Premature end of JPEG file"))
    }

    @Test("HTML and random bytes are not images", arguments: ["html.jpg", "scrambled.jpg"])
    func notImages(_ name: String) {
        let probed = #expect(throws: DarkroomError.self) { try decoder.decode(Fixtures.bytes(name)) }
        guard case .unrecognizedFormat? = probed else {
            Issue.record("expected .unrecognizedFormat, got \(String(describing: probed))")
            return
        }
        // Even past a fooled probe, libgd's refusal comes back with libjpeg's words.
        let forced = #expect(throws: DarkroomError.self) { try decode(Fixtures.bytes(name), as: .jpeg) }
        guard case .decodeFailed(.jpeg, let detail)? = forced else {
            Issue.record("expected .decodeFailed(.jpeg, …), got \(String(describing: forced))")
            return
        }
        #expect(detail.contains("Not a JPEG file"))
    }

    @Test("decompression bombs are refused from the header in milliseconds", arguments: [
        ("bomb-40000.png", 40000), ("bomb-65535.gif", 65535),
    ])
    func bombs(_ name: String, _ side: Int) throws {
        let bytes = Fixtures.bytes(name)
        let elapsed = ContinuousClock().measure {
            #expect(throws: DarkroomError.tooManyPixels(width: side, height: side, limit: DecodeLimits.defaultMaxPixels)) {
                try decoder.decode(bytes)
            }
        }
        #expect(elapsed < .milliseconds(50))
    }

    @Test("limits passed in the options are honoured")
    func customLimits() {
        let bytes = Fixtures.bytes("gradient.jpg")
        let fewPixels = DecodeOptions(limits: DecodeLimits(maxPixels: 1000))
        #expect(throws: DarkroomError.tooManyPixels(width: 64, height: 48, limit: 1000)) {
            try decoder.decode(bytes, options: fewPixels)
        }
        let fewBytes = DecodeOptions(limits: DecodeLimits(maxInputBytes: 100))
        #expect(throws: DarkroomError.inputTooLarge(byteCount: bytes.count, limit: 100)) {
            try decoder.decode(bytes, header: ImageProbe.probe(bytes), options: fewBytes)
        }
    }

    @Test("a GIF cut short is truncated, not padded with colour 0")
    func truncatedGIF() {
        let bytes = Fixtures.bytes("blocks.gif")
        let detail = "the data ends after \(bytes.count / 2) bytes, in the first frame's image data"
        #expect(throws: DarkroomError.truncated(.gif, detail: detail)) {
            try decoder.decode(Array(bytes.prefix(bytes.count / 2)))
        }
    }

    @Test("a GIF whose LZW data ends (end-of-information) before the frame's last pixel is truncated")
    func gifEndingEarly() throws {
        // A 100×100 frame, 2-colour palette; its 3-bit codes give ten pixels, then clear and end.
        var codes: [Int] = []
        for pixel in 0..<10 { codes += pixel % 2 == 0 ? [4, 1] : [1] }
        codes += [4, 5]
        var data: [UInt8] = [], buffer = 0, bits = 0
        for code in codes {
            buffer |= code << bits
            bits += 3
            while bits >= 8 { data.append(UInt8(buffer & 0xFF)); buffer >>= 8; bits -= 8 }
        }
        if bits > 0 { data.append(UInt8(buffer)) }
        let gif: [UInt8] = Array("GIF89a".utf8) + [100, 0, 100, 0, 0x80, 0, 0, 255, 0, 0, 0, 255, 0]
            + [0x2C, 0, 0, 0, 0, 100, 0, 100, 0, 0, 2, UInt8(data.count)] + data + [0, 0x3B]
        #expect(throws: DarkroomError.truncated(.gif, detail: "the first frame's image data ends after 10 of its 100x100 pixels")) {
            try decoder.decode(gif)
        }
    }

    @Test("GIFs of many sizes, palettes and interlacing count exactly their pixels and decode", arguments: [
        (1, 1), (3, 2), (17, 5), (64, 48), (333, 77), (1000, 3),
    ])
    func gifPixelCounts(width: Int, height: Int) throws {
        let image = Pattern.photo(width: width, height: height)
        let gif = try GDEncoder(format: .gif).encode(image, options: EncodeOptions(format: .gif))
        let decoded = try decoder.decode(gif)
        #expect(decoded.size == PixelSize(width: width, height: height))
    }

    @Test("a PNG cut short or with a damaged IDAT is refused before libpng sees it")
    func damagedPNG() throws {
        let bytes = Fixtures.bytes("gradient-rgba.png")
        let cut = #expect(throws: DarkroomError.self) { try decoder.decode(Array(bytes.prefix(bytes.count - 30))) }
        guard case .truncated(.png, _)? = cut else {
            Issue.record("expected .truncated(.png, …), got \(String(describing: cut))")
            return
        }
        var flipped = bytes
        let idat = try #require(PNGChunks.offset(of: "IDAT", in: bytes))
        flipped[idat + 20] ^= 0xFF
        #expect(throws: DarkroomError.corrupt(.png, detail: "CRC mismatch in the IDAT chunk at offset \(idat)")) {
            try decoder.decode(flipped)
        }
    }

    @Test("every format cut in half throws a DarkroomError", arguments: [
        "gradient.tiff", "gradient-lossy.webp", "gradient-lossless.webp", "gradient.avif", "gradient.heic",
        "gradient-rgba.tga", "gradient.bmp", "gradient-progressive.jpg",
    ])
    func halves(_ name: String) {
        let bytes = Fixtures.bytes(name)
        #expect(throws: DarkroomError.self) { try decoder.decode(Array(bytes.prefix(bytes.count / 2))) }
    }

    @Test("libgd, libpng, libtiff and libjpeg print nothing to stderr")
    func silence() throws {
        let inputs: [(String, ImageFormat)] = [
            ("truncated.jpg", .jpeg), ("html.jpg", .jpeg), ("scrambled.jpg", .jpeg), ("gradient.tiff", .tiff),
            ("blocks.gif", .gif), ("gradient-rgba.png", .png), ("gradient-lossy.webp", .webp),
            ("gradient.avif", .avif), ("gradient.heic", .heif), ("gradient-rgba.tga", .tga), ("gradient.bmp", .bmp),
        ]
        var decodedDespiteWarnings: [Image] = []
        let printed = try StandardErrorCapture.libraryOutput {
            for (name, format) in inputs {
                let bytes = Fixtures.bytes(name)
                var scribbled = bytes
                for i in bytes.count / 3..<min(bytes.count, bytes.count / 3 + 40) { scribbled[i] ^= 0x5A }
                _ = try? decode(Array(bytes.prefix(bytes.count / 2)), as: format)
                _ = try? decode(scribbled, as: format)
            }
            // Ancillary-chunk damage libpng would warn about: the pixels still decode.
            for damaged in PNGChunks.withWarnings(Fixtures.bytes("gradient-rgb.png")) {
                decodedDespiteWarnings.append(try decoder.decode(damaged))
            }
        }
        #expect(printed == [])
        #expect(decodedDespiteWarnings == Array(repeating: Pattern.gradient(), count: 6))
    }

    @Test("a greyscale TGA is unsupported, saying which; a cut HEIF is truncated, not a libgd internal")
    func clearFailures() throws {
        // 18-byte header: no id, no colour map, type 3 (greyscale), 4×2, 8 bits, then 8 pixels.
        let tga: [UInt8] = [0, 0, 3] + [UInt8](repeating: 0, count: 9) + [4, 0, 2, 0, 8, 0] + [UInt8](repeating: 90, count: 8)
        #expect { try decoder.decode(tga) } throws: { error in
            guard case let DarkroomError.unsupportedFormat(.tga, reason) = error else { return false }
            return reason.contains("8 bits per pixel")
        }
        // Cut inside its item data: the probe finds the item running past the end of the file.
        let heif = Fixtures.bytes("gradient.heic")
        #expect { try decoder.decode(Array(heif.prefix(heif.count * 3 / 4))) } throws: { error in
            "\(error)".hasPrefix("truncated HEIF data: item 1's data")
        }
    }

    @Test("a TIFF error comes before the warnings that led to it, with no empty file name")
    func tiffErrorFirst() throws {
        // Tags out of order (a warning), then pixel data that is not there (the error).
        var bytes = BaselineTIFF.raw(
            width: 8, height: 8, photometric: 1, bitsPerSample: 8, samples: 1, extraSample: nil, data: [])
        let first = Array(bytes[10..<22]), second = Array(bytes[22..<34])
        bytes.replaceSubrange(10..<34, with: second + first)
        #expect { try decoder.decode(bytes) } throws: { error in
            let text = "\(error)"
            guard let sorted = text.firstRange(of: "not sorted") else { return false }
            // Something else (the error) is named before the ordering warning, and no ": : ".
            return text[..<sorted.lowerBound].contains("TIFF") && text.distance(from: text.startIndex, to: sorted.lowerBound) > 30
                && !text.contains(": : ")
        }
    }

    @Test("concurrent decodes keep their own libgd messages")
    func messagesStayOnTheirThread() {
        let good = Fixtures.bytes("gradient.jpg"), bad = Fixtures.bytes("truncated.jpg")
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let failed = (try? decoder.decode(i.isMultiple(of: 2) ? good : bad)) == nil
            outcomes.record(i, failed: failed)
        }
        #expect(outcomes.all == (0..<16).map { !$0.isMultiple(of: 2) })
    }
}

/// Collects results from concurrent work. `@unchecked Sendable`: every access holds `lock`.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results = [Bool](repeating: false, count: 16)
    func record(_ i: Int, failed: Bool) { lock.withLock { results[i] = failed } }
    var all: [Bool] { lock.withLock { results } }
}

// MARK: - Item data past the end of an AVIF

@Suite("an AVIF whose item data claims more bytes than the file holds never reaches libavif")
struct AVIFExtentTests {
    @Test("a 4 GiB or 16 TiB extent is a truncated AVIF (libavif aborted the process allocating it)",
          arguments: ["iloc-extent-16tib.avif", "iloc-extent-4gib.avif"])
    func hugeExtent(name: String) {
        #expect { try GDDecoder().decode(Fixtures.bytes(name)) } throws: { error in
            guard case let DarkroomError.truncated(.avif, detail) = error else { return false }
            return detail.contains("runs past the end of the file")
        }
    }
}
