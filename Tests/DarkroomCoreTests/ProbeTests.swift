import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Header probe

@Suite("Header probe reads format, size and orientation without decoding")
struct ProbeTests {
    @Test(
        "every fixture format is detected from its bytes with its stored size",
        arguments: [
            ("gradient.jpg", ImageFormat.jpeg, 64, 48),
            ("gradient-progressive.jpg", .jpeg, 64, 48),
            ("gradient-rgb.png", .png, 64, 48),
            ("gradient-rgba16.png", .png, 64, 48),
            ("blocks-palette.png", .png, 64, 48),
            ("gradient-gray-alpha.png", .png, 64, 48),
            ("blocks.gif", .gif, 64, 48),
            ("gradient-lossy.webp", .webp, 64, 48),
            ("gradient-lossless.webp", .webp, 64, 48),
            ("gradient.avif", .avif, 64, 48),
            ("gradient.heic", .heif, 64, 48),
            ("gradient.tiff", .tiff, 64, 48),
            ("gradient.bmp", .bmp, 64, 48),
            ("gradient.tga", .tga, 64, 48),
            ("gradient-rgba.tga", .tga, 64, 48),
            ("orientation-6.jpg", .jpeg, 48, 64),
            ("bomb-40000.png", .png, 40000, 40000),
            ("bomb-65535.gif", .gif, 65535, 65535),
        ])
    func detectsFormatAndSize(name: String, format: ImageFormat, width: Int, height: Int) throws {
        let header = try ImageProbe.probe(Fixtures.bytes(name))
        #expect(header.format == format)
        #expect(header.width == width)
        #expect(header.height == height)
    }

    @Test("EXIF orientation is read from JPEG APP1 for all 8 values")
    func jpegOrientation() throws {
        for value in 1...8 {
            let header = try ImageProbe.probe(Fixtures.bytes("orientation-\(value).jpg"))
            #expect(header.orientation.rawValue == value)
            #expect(header.uprightSize == PixelSize(width: 64, height: 48))
        }
    }

    @Test("EXIF orientation is read from a PNG eXIf chunk")
    func pngOrientation() throws {
        let header = try ImageProbe.probe(Fixtures.bytes("orientation-6.png"))
        #expect(header.orientation == .right)
        #expect(header.hasAlpha == true)
    }

    @Test("progressive JPEG is flagged")
    func progressive() throws {
        #expect(try ImageProbe.probe(Fixtures.bytes("gradient-progressive.jpg")).isProgressive)
        #expect(try !ImageProbe.probe(Fixtures.bytes("gradient.jpg")).isProgressive)
    }

    @Test(
        "a JPEG's chroma sampling gives the samples coded per pixel",
        arguments: [
            ("gradient.jpg", 3.0),
            ("progressive-subsampled/photo422.jpg", 2.0),
            ("progressive-subsampled/photo420.jpg", 1.5),
            ("progressive-subsampled/photo411-single-dc.jpg", 1.5),
        ])
    func codedSamples(name: String, samples: Double) throws {
        #expect(try ImageProbe.probe(Fixtures.bytes(name)).codedSamplesPerPixel == samples)
    }

    @Test("a greyscale JPEG codes one sample per pixel; a bad sampling factor leaves it unknown")
    func codedSamplesOfHandMadeFrames() throws {
        // SOI, then a baseline frame header: 8-bit, 16×16, components (id, H<<4|V, table).
        func frame(_ components: [[UInt8]]) -> [UInt8] {
            [0xFF, 0xD8, 0xFF, 0xC0, 0x00, UInt8(8 + 3 * components.count), 0x08, 0x00, 0x10, 0x00, 0x10,
             UInt8(components.count)] + components.flatMap { $0 }
        }
        #expect(try ImageProbe.probe(frame([[1, 0x22, 0]])).codedSamplesPerPixel == 1)
        #expect(try ImageProbe.probe(frame([[1, 0x21, 0], [2, 0x11, 1], [3, 0x11, 1]])).codedSamplesPerPixel == 2)
        let unknown = try ImageProbe.probe(frame([[1, 0x05, 0], [2, 0x11, 1], [3, 0x11, 1]]))
        #expect(unknown.codedSamplesPerPixel == nil)
        #expect(unknown.width == 16 && unknown.height == 16)
    }

    @Test("empty input is refused as empty")
    func empty() {
        #expect(throws: DarkroomError.emptyInput) { try ImageProbe.probe([UInt8]()) }
    }

    @Test("text that starts with 'BM' is text, not a BMP of absurd size; a BMP cut in its headers is a truncated BMP")
    func textStartingBM() throws {
        let text = Array("BMW owners manual, chapter 1: starting the engine".utf8)
        #expect { try ImageProbe.probe(text) } throws: { error in
            guard case DarkroomError.unrecognizedFormat(let hint) = error else { return false }
            return hint.contains("plain text")
        }
        let bmp = Fixtures.bytes("gradient.bmp")
        #expect(try ImageProbe.probe(bmp).format == .bmp)
        #expect { try ImageProbe.probe(Array(bmp.prefix(20))) } throws: { error in
            guard case DarkroomError.truncated(.bmp, _) = error else { return false }
            return true
        }
    }

    @Test("HTML is named as HTML")
    func html() {
        do {
            _ = try ImageProbe.probe(Fixtures.bytes("html.jpg"))
            Issue.record("HTML was accepted")
        } catch {
            #expect("\(error)".contains("HTML"))
        }
    }

    @Test("scrambled bytes are an unrecognised format")
    func scrambled() {
        #expect {
            try ImageProbe.probe(Fixtures.bytes("scrambled.jpg"))
        } throws: { error in
            guard case DarkroomError.unrecognizedFormat = error else { return false }
            return true
        }
    }

    @Test("a JPEG cut inside its header is truncated, never a crash")
    func truncatedHeaders() {
        let jpeg = Fixtures.bytes("gradient.jpg")
        for length in [3, 4, 10, 20, 100] {
            #expect(throws: DarkroomError.self) { try ImageProbe.probe(Array(jpeg.prefix(length))) }
        }
    }

    @Test("an ISOBMFF box with a 64-bit size past any data is truncated, never an overflow", arguments: [
        [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        [0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00] as [UInt8],
    ])
    func hugeLargeSize(largeSize: [UInt8]) {
        let ftyp: [UInt8] = [0, 0, 0, 28] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8)
        let meta: [UInt8] = [0, 0, 0, 1] + Array("meta".utf8) + largeSize + [0, 0, 0, 0]
        #expect { try ImageProbe.probe(ftyp + meta) } throws: { error in
            guard case DarkroomError.truncated = error else { return false }
            return true
        }
    }

    @Test("a PNG chunk before the image data that claims more bytes than follow is truncation, found before libpng allocates for it")
    func pngChunkLongerThanData() {
        let png = Fixtures.bytes("gradient-rgba.png")
        // Keep the signature and IHDR (33 bytes), then a tEXt chunk claiming 2³¹ − 1 bytes.
        let forged = Array(png.prefix(33)) + [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8) + Array(png.dropFirst(33).prefix(40))
        #expect { try ImageProbe.probe(forged) } throws: { error in
            guard case let DarkroomError.truncated(format, detail) = error else { return false }
            return format == .png && detail.contains("tEXt chunk claims 2147483647 bytes")
        }
    }

    @Test("a PNG side over 2³¹ − 1 is corrupt, not merely too large")
    func pngSideTooLong() {
        var png = Fixtures.bytes("gradient-rgba.png")
        png.replaceSubrange(16..<20, with: [0x80, 0, 0, 0])
        #expect { try ImageProbe.probe(png) } throws: { error in
            guard case let DarkroomError.corrupt(.png, detail) = error else { return false }
            return detail.contains("2147483648")
        }
    }

    /// A little-endian TIFF header and IFD0 of `entries` (tag, type, count, value), no pixels.
    static func tiff(_ entries: [(tag: Int, type: Int, count: Int, value: Int)]) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var bytes: [UInt8] = Array("II".utf8) + le(42, 2) + le(8, 4) + le(entries.count, 2)
        for e in entries { bytes += le(e.tag, 2) + le(e.type, 2) + le(e.count, 4) + le(e.value, 4) }
        return bytes + le(0, 4)
    }

    @Test("TIFF tags are read as libtiff reads them: the first of duplicates, any integer type, one value")
    func tiffTagsAsLibtiff() throws {
        // Width twice (LONG 20000, then SHORT 10): libtiff decodes 20000 wide, so the probe must say so.
        let duplicated = try ImageProbe.probe(Self.tiff([(256, 4, 1, 20000), (256, 3, 1, 10), (257, 4, 1, 20000), (274, 3, 1, 3), (274, 3, 1, 1)]))
        #expect(duplicated.size == PixelSize(width: 20000, height: 20000))
        #expect(duplicated.orientation == .down)
        // SLONG and BYTE sizes are sizes too.
        #expect(try ImageProbe.probe(Self.tiff([(256, 9, 1, 300), (257, 1, 1, 200)])).size == PixelSize(width: 300, height: 200))
        // A negative SLONG, or a list, is no size.
        #expect(throws: DarkroomError.self) { try ImageProbe.probe(Self.tiff([(256, 9, 1, -5), (257, 4, 1, 20)])) }
        #expect(throws: DarkroomError.self) { try ImageProbe.probe(Self.tiff([(256, 4, 2, 20), (257, 4, 1, 20)])) }
    }

    @Test("a TIFF tile larger than the image is what the pixel limit checks: libtiff inflates whole tiles")
    func tiffHugeTile() throws {
        let header = try ImageProbe.probe(Self.tiff([(256, 3, 1, 16), (257, 3, 1, 16), (322, 4, 1, 32768), (323, 4, 1, 32768)]))
        #expect(header.size == PixelSize(width: 16, height: 16))
        #expect(header.codedSize == PixelSize(width: 32768, height: 32768))
        // The message gives the image's real size and names the tile as what is too large.
        #expect { try DecodeLimits().check(header) } throws: { error in
            guard case let DarkroomError.frameTooLarge(.tiff, width, height, frame, _) = error else { return false }
            return width == 16 && height == 16 && frame == PixelSize(width: 32768, height: 32768)
                && "\(error)" == "TIFF image is 16×16 but decoding it means a tile of 32768×32768 (1073.7 megapixels), more than the limit of 100 megapixels"
        }
        let ordinary = try ImageProbe.probe(Self.tiff([(256, 3, 1, 1000), (257, 3, 1, 700), (322, 3, 1, 256), (323, 3, 1, 256)]))
        #expect(ordinary.codedSize == nil)
    }

    /// An APP1 EXIF segment whose IFD0 holds only `orientation`.
    static func exifSegment(orientation: Int) -> [UInt8] {
        let payload = Array("Exif\0\0".utf8) + tiff([(274, 3, 1, orientation)])
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    @Test("the first EXIF block gives the orientation, even when it says 1 and a later one says 6")
    func firstExifWins() throws {
        let jpeg = Fixtures.bytes("gradient.jpg")
        let twoBlocks = Array(jpeg.prefix(2)) + Self.exifSegment(orientation: 1) + Self.exifSegment(orientation: 6) + jpeg.dropFirst(2)
        #expect(try ImageProbe.probe(twoBlocks).orientation == .up)
    }

    @Test("an EXIF block after the frame header still counts, as in browsers; damage after it is left to the decoder")
    func exifAfterFrameHeader() throws {
        let jpeg = Fixtures.bytes("gradient.jpg")
        let sof = try #require((2..<jpeg.count - 1).first { jpeg[$0] == 0xFF && (jpeg[$0 + 1] == 0xC0 || jpeg[$0 + 1] == 0xC2) })
        let end = sof + 2 + (Int(jpeg[sof + 2]) << 8 | Int(jpeg[sof + 3]))
        let late = Array(jpeg.prefix(end)) + Self.exifSegment(orientation: 6) + jpeg.dropFirst(end)
        #expect(try ImageProbe.probe(late).orientation == .right)
        // Cut right after the frame header: the size is known, the rest is the decoder's business.
        #expect(try ImageProbe.probe(Array(jpeg.prefix(end + 3))).size == ImageProbe.probe(jpeg).size)
    }

    @Test("stray bytes between markers are skipped, as libjpeg does")
    func strayBytes() throws {
        let jpeg = Fixtures.bytes("gradient.jpg")
        let app0End = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        let junk = Array(jpeg.prefix(app0End)) + [0x00, 0x13, 0x37] + jpeg.dropFirst(app0End)
        #expect(try ImageProbe.probe(junk).size == ImageProbe.probe(jpeg).size)
    }

    @Test("every prefix of every fixture probes or throws, never traps")
    func prefixesNeverTrap() {
        for name in ["gradient.jpg", "gradient-rgba.png", "blocks.gif", "gradient-lossy.webp", "gradient.avif",
                     "gradient.heic", "gradient.tiff", "gradient.bmp", "gradient.tga"] {
            let bytes = Fixtures.bytes(name)
            for length in 0..<min(bytes.count, 400) {
                _ = try? ImageProbe.probe(Array(bytes.prefix(length)))
            }
        }
    }
}

@Suite("the pixel-limit error gives the limit in units that do not round it away")
struct PixelLimitMessageTests {
    @Test("megapixels for the usual limits, pixels under a tenth of a megapixel")
    func limitText() {
        #expect(DarkroomError.tooManyPixels(width: 40_000, height: 40_000, limit: 100_000_000).description
            == "image is 40000×40000 (1600 megapixels), more than the limit of 100 megapixels")
        #expect(DarkroomError.tooManyPixels(width: 451, height: 300, limit: 1).description
            == "image is 451×300 (135300 pixels), more than the limit of 1 pixel")
        #expect(DarkroomError.tooManyPixels(width: 65, height: 4000, limit: 259_999).description
            == "image is 65×4000 (260000 pixels), more than the limit of 259999 pixels")
        #expect(DarkroomError.tooManyPixels(width: 600, height: 500, limit: 250_000).description
            == "image is 600×500 (300000 pixels), more than the limit of 250000 pixels")
        #expect(DarkroomError.tooManyPixels(width: 1200, height: 1000, limit: 1_000_000).description
            == "image is 1200×1000 (1.2 megapixels), more than the limit of 1 megapixels")
    }
}

@Suite("bytes that stop inside a format's signature are called truncated, not unknown")
struct CutSignatureTests {
    @Test("a few bytes of a GIF, PNG, JPEG or WebP signature, or of an AVIF/HEIF ftyp box; anything else is described as before")
    func cutSignatures() {
        let truncated: [([UInt8], ImageFormat)] = [
            (Array("GIF".utf8), .gif), (Array("GIF8".utf8), .gif), ([0x89, 0x50, 0x4E, 0x47], .png),
            ([0xFF, 0xD8], .jpeg), (Array("RIFF".utf8), .webp), (Array("RIFF\0\0\0\0WE".utf8), .webp),
            ([0, 0, 0, 0x1C] + Array("ftypheic\0\0\0".utf8), .heif), ([0, 0, 0, 0x1C] + Array("ftyp".utf8), .heif),
            ([0, 0, 0, 0x20] + Array("ftypavif\0".utf8), .avif),
        ]
        for (bytes, format) in truncated {
            #expect(throws: DarkroomError.truncated(format, detail: "the data ends after \(bytes.count) bytes, inside the format's signature")) {
                try ImageFormat.detect(bytes)
            }
        }
        for text in ["G", "GIF8x", "Hello", "RIFF\0\0\0\0WAVEfmt "] {
            #expect {
                try ImageFormat.detect(Array(text.utf8))
            } throws: { error in
                if case DarkroomError.unrecognizedFormat = error { return true }
                return false
            }
        }
    }
}

// MARK: - Offsets a file gives near Int.max

@Suite("ByteReader answers nil for any offset a file gives, however large, and the probe never traps on one")
struct HugeOffsetTests {
    @Test("reads at Int.max, Int.max - 3 and negative offsets are nil, not an overflow trap")
    func readerBounds() {
        let bytes: [UInt8] = Array(repeating: 7, count: 16)
        bytes.withUnsafeBytes { raw in
            let reader = ByteReader(raw)
            for offset in [Int.max, Int.max - 1, Int.max - 3, Int.max - 7, -1, Int.min, 13, 16] {
                #expect(reader.u32le(offset) == nil && reader.u32be(offset) == nil, "\(offset)")
                #expect(reader.u16le(offset + (offset == 13 ? 2 : 0)) == nil || offset == 13)
                #expect(reader.u64be(offset) == nil && reader.fourCC(offset) == nil)
                #expect(reader.slice(offset, 4) == nil && !reader.starts(with: "AB", at: offset))
            }
            #expect(reader.slice(0, Int.max) == nil)
            #expect(reader.u32le(12) == 0x0707_0707)
            #expect(reader.slice(16, 0)?.count == 0)
        }
    }

    @Test("a BigTIFF whose first directory is at 2⁶³−1 is refused as a malformed header (found by fuzz-decode-tiff)")
    func bigTIFFAtIntMax() {
        var bytes: [UInt8] = [0x49, 0x49, 0x2B, 0x00, 0x08, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        bytes += Array(repeating: 0, count: 64)
        #expect(throws: DarkroomError.self) { try ImageProbe.probe(bytes) }
    }
}
