import DarkroomCore
import DarkroomPNG
import DarkroomTestSupport
import Testing

// MARK: - Orientation sources in PNG

@Suite("A PNG turns upright by eXIf, else ImageMagick's raw profile, else XMP")
struct PNGOrientationSourceTests {
    @Test("the raw-profile and XMP fixtures decode to the upright gradient", arguments: ["orientation-6-raw-profile.png", "orientation-6-xmp.png"])
    func upright(fixture: String) throws {
        let image = try decodePNG(Fixtures.bytes(fixture))
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient(alpha: true)) == 0)
    }

    @Test("EXIF wins over XMP, even when it says 1", arguments: [(1, 6, Orientation.up), (3, 6, .down), (nil, 6, .right)] as [(Int?, Int, Orientation)])
    func precedence(exif: Int?, xmp: Int, expected: Orientation) throws {
        let packet = Array(#"<x:xmpmeta><rdf:Description tiff:Orientation="\#(xmp)"/></x:xmpmeta>"#.utf8)
        var metadata = ImageMetadata(xmp: packet)
        if let exif { metadata.exif = MetadataSamples.exif(orientation: exif) }
        let png = try PNGEncoder().encode(Pattern.gradient(), options: EncodeOptions(format: .png, keepsMetadata: true), metadata: metadata)
        #expect(try ImageProbe.probe(png).orientation == expected)
    }

    @Test("the inflater agrees with libpng on every iCCP profile", arguments: ["icc-adobe-rgb.png", "icc-display-p3.png", "icc-gray-gamma18.png", "lut-rgb-mft1.png"])
    func inflateMatchesLibpng(fixture: String) throws {
        let png = Fixtures.bytes(fixture)
        let fromLibpng = try #require(PNGEmbeddedProfile.bytes(in: png))
        // The iCCP chunk: name, NUL, method, then the zlib stream.
        var offset = 8
        var stream: [UInt8]?
        while offset + 8 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            if png[offset + 4..<offset + 8].elementsEqual(Array("iCCP".utf8)) {
                let data = Array(png[offset + 8..<offset + 8 + length])
                let nul = try #require(data.firstIndex(of: 0))
                stream = Array(data[(nul + 2)...])
            }
            offset += 12 + length
        }
        #expect(Inflate.zlib(try #require(stream), maxOutput: 1 << 24) == fromLibpng)
    }
}
