import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Orientation from XMP and ImageMagick's raw profiles

@Suite("The probe reads orientation from EXIF, then ImageMagick's raw EXIF profile, then XMP")
struct OrientationSourceTests {
    @Test("XMP's tiff:Orientation is read as an attribute or an element, in either quote")
    func xmpForms() {
        #expect(XMPOrientation.read(Array(#"<rdf:Description tiff:Orientation="6"/>"#.utf8)) == .right)
        #expect(XMPOrientation.read(Array("<rdf:Description tiff:Orientation='3'/>".utf8)) == .down)
        #expect(XMPOrientation.read(Array("<tiff:Orientation>8</tiff:Orientation>".utf8)) == .left)
        #expect(XMPOrientation.read(MetadataSamples.xmp) == nil)
    }

    @Test("values outside 1…8 are no orientation", arguments: ["0", "9", "10", "66", "x", ""])
    func xmpOutOfRange(value: String) {
        #expect(XMPOrientation.read(Array(#"<x tiff:Orientation="\#(value)"/>"#.utf8)) == nil)
    }

    @Test("resetting rewrites the digit to 1 and nothing else")
    func xmpReset() {
        let packet = Array("<a><tiff:Orientation>6</tiff:Orientation></a>".utf8)
        let reset = XMPOrientation.resettingToUp(packet)
        #expect(String(decoding: reset, as: UTF8.self) == "<a><tiff:Orientation>1</tiff:Orientation></a>")
        #expect(XMPOrientation.resettingToUp(MetadataSamples.xmp) == MetadataSamples.xmp)
        // Kept metadata follows the pixels: upright, so XMP says 1 as EXIF does.
        let kept = ImageMetadata(xmp: packet).kept(afterDecodingWith: DecodeOptions())
        #expect(kept.xmp == reset)
        #expect(ImageMetadata(xmp: packet).kept(afterDecodingWith: DecodeOptions(appliesOrientation: false)).xmp == packet)
    }

    @Test("ImageMagick's zlib-compressed raw EXIF profile (zTXt) gives the orientation")
    func rawProfile() throws {
        #expect(try ImageProbe.probe(Fixtures.bytes("orientation-6-raw-profile.png")).orientation == .right)
    }

    @Test("XMP in a compressed iTXt chunk after the image data gives the orientation")
    func pngXMPAfterImageData() throws {
        #expect(try ImageProbe.probe(Fixtures.bytes("orientation-6-xmp.png")).orientation == .right)
        // And the metadata reader inflates the packet too.
        let xmp = try #require(ImageMetadata(reading: Fixtures.bytes("orientation-6-xmp.png"), format: .png).xmp)
        #expect(XMPOrientation.read(xmp) == .right)
    }

    @Test("an AVIF without irot or imir takes XMP's orientation")
    func avifXMP() throws {
        #expect(try ImageProbe.probe(Fixtures.bytes("orientation-6-xmp.avif")).orientation == .right)
    }

    @Test("an AVIF's irot and imir decide when present", arguments: 1...8)
    func avifTransforms(value: Int) throws {
        #expect(try ImageProbe.probe(Fixtures.bytes("orientation-\(value).avif")).orientation == Orientation(exifValue: value))
    }

    @Test("an AVIF with an Exif item saying 6 and irot saying the same is turned once")
    func avifExifAndIrot() throws {
        #expect(try ImageProbe.probe(Fixtures.bytes("orientation-6-exif-irot.avif")).orientation == .right)
    }
}

// MARK: - Inflate

@Suite("Inflate decodes zlib streams in Swift, bounded, and refuses damage without trapping")
struct InflateTests {
    /// The zTXt chunk's zlib stream of `orientation-6-raw-profile.png` (Python's zlib, level 9).
    static func compressedProfile() throws -> [UInt8] {
        let png = Fixtures.bytes("orientation-6-raw-profile.png")
        let keyword = Array("Raw profile type exif\0\0".utf8)
        let at = try #require((0..<png.count - keyword.count).first { png[$0..<$0 + keyword.count].elementsEqual(keyword) })
        let length = Int(png[at - 8]) << 24 | Int(png[at - 7]) << 16 | Int(png[at - 6]) << 8 | Int(png[at - 5])
        return Array(png[(at + keyword.count)..<(at + length)])
    }

    @Test("a Huffman-coded stream inflates to ImageMagick's hex profile, checked by its Adler-32")
    func huffmanStream() throws {
        let text = try #require(Inflate.zlib(try Self.compressedProfile(), maxOutput: 1 << 20))
        #expect(String(decoding: text, as: UTF8.self).hasPrefix("\nexif\n"))
        #expect(text.count > 60)
    }

    @Test("stored blocks (longer than one block) inflate to their bytes")
    func storedStream() {
        let data = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        while offset < data.count {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            stream += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            stream += data[offset..<offset + count]
            offset += count
        }
        #expect(Inflate.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        let adler = Inflate.adler32(data)
        stream += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        #expect(Inflate.zlib(stream, maxOutput: 1 << 20) == data)
        // The wrong checksum is damage.
        stream[stream.count - 1] ^= 1
        #expect(Inflate.zlib(stream, maxOutput: 1 << 20) == nil)
    }

    @Test("output past the cap is refused, as a compression bomb would be")
    func capped() throws {
        let stream = try Self.compressedProfile()
        let size = try #require(Inflate.zlib(stream, maxOutput: 1 << 20)).count
        #expect(Inflate.zlib(stream, maxOutput: size) != nil)
        #expect(Inflate.zlib(stream, maxOutput: size - 1) == nil)
    }

    @Test("every cut and every flipped byte gives bytes or nil, never a trap")
    func damage() throws {
        let stream = try Self.compressedProfile()
        for cut in 0..<stream.count - 4 { #expect(Inflate.zlib(Array(stream.prefix(cut)), maxOutput: 1 << 20) == nil) }
        for index in stream.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = stream
                damaged[index] ^= flip
                _ = Inflate.zlib(damaged, maxOutput: 1 << 16)
            }
        }
    }
}
