import DarkroomCore
import DarkroomTestSupport
import DarkroomWebP
import Foundation
import Testing

// MARK: - Metadata in WebP output

@Suite("The WebP encoder writes an extended file with ICCP, EXIF and XMP chunks that readers find")
struct WebPMetadataTests {
    /// libwebp writes VP8 (lossy, opaque), VP8X + ALPH + VP8 (lossy with alpha) and VP8L.
    static let kinds: [(lossless: Bool, alpha: Bool)] = [(false, false), (false, true), (true, false), (true, true)]

    @Test("every part reads back as written, with the pixels and flags of a plain encode", arguments: kinds)
    func roundTrip(lossless: Bool, alpha: Bool) throws {
        let image = alpha ? alphaRamp() : Pattern.gradient()
        let options = EncodeOptions(format: .webp, lossless: lossless, keepsMetadata: true)
        let tagged = try WebPEncoder().encode(image, options: options, metadata: MetadataSamples.all)
        let plain = try WebPEncoder().encode(image, options: options)
        #expect(ImageMetadata(reading: tagged, format: .webp) == MetadataSamples.all)
        let stored = DecodeOptions(appliesOrientation: false, colorProfiles: .ignore)
        #expect(try decodeWebP(tagged, options: stored) == decodeWebP(plain, options: stored))
        // The VP8X header: the canvas and the alpha flag say what the image chunk says.
        #expect(String(decoding: tagged[12..<16], as: UTF8.self) == "VP8X")
        let flags = tagged[20]
        #expect(flags & 0x20 != 0 && flags & 0x08 != 0 && flags & 0x04 != 0)
        #expect((flags & 0x10 != 0) == alpha)
        let width = Int(tagged[24]) | Int(tagged[25]) << 8 | Int(tagged[26]) << 16
        let height = Int(tagged[27]) | Int(tagged[28]) << 8 | Int(tagged[29]) << 16
        #expect(PixelSize(width: width + 1, height: height + 1) == image.size)
        // RIFF's size covers the rest of the file.
        let riff = Int(tagged[4]) | Int(tagged[5]) << 8 | Int(tagged[6]) << 16 | Int(tagged[7]) << 24
        #expect(riff == tagged.count - 8)
    }

    @Test("odd-sized parts are padded, and each part alone sets only its own flag")
    func oddSizesAndSingleParts() throws {
        let options = EncodeOptions(format: .webp, keepsMetadata: true)
        let odd = ImageMetadata(xmp: MetadataSamples.xmp + [0x20])  // one more byte than the sample
        for metadata in [odd, ImageMetadata(exif: MetadataSamples.exif()), ImageMetadata(iccProfile: MetadataSamples.adobeRGB)] {
            let tagged = try WebPEncoder().encode(Pattern.gradient(), options: options, metadata: metadata)
            #expect(ImageMetadata(reading: tagged, format: .webp) == metadata)
            #expect(tagged.count % 2 == 0)
            let expected: UInt8 = (metadata.iccProfile != nil ? 0x20 : 0) | (metadata.exif != nil ? 0x08 : 0) | (metadata.xmp != nil ? 0x04 : 0)
            #expect(tagged[20] == expected)
            _ = try decodeWebP(tagged)
        }
    }

    @Test("without an EXIF chunk, the XMP chunk's tiff:Orientation turns the picture upright")
    func xmpOrientation() throws {
        let packet = Array(#"<x:xmpmeta><rdf:Description tiff:Orientation="6"/></x:xmpmeta>"#.utf8)
        let options = EncodeOptions(format: .webp, lossless: true, keepsMetadata: true)
        let tagged = try WebPEncoder().encode(Pattern.gradient().applying(.left), options: options, metadata: ImageMetadata(xmp: packet))
        #expect(try ImageProbe.probe(tagged).orientation == .right)
        #expect(try decodeWebP(tagged) == Pattern.gradient())
    }

    @Test(
        "webpinfo finds no error in the extended file, and exiftool reads every part",
        .enabled(if: WebPMetadataTests.webpinfo != nil && MetadataSamples.exiftool != nil, "webpinfo or exiftool is not installed"),
        arguments: kinds)
    func externalReaders(lossless: Bool, alpha: Bool) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("tagged.webp")
        let options = EncodeOptions(format: .webp, lossless: lossless, keepsMetadata: true)
        let tagged = try WebPEncoder().encode(alpha ? alphaRamp() : Pattern.gradient(), options: options, metadata: MetadataSamples.all)
        try Data(tagged).write(to: URL(fileURLWithPath: path))
        let (status, printed) = try await ChildProcess.run(Self.webpinfo!, [path])
        #expect(status == 0 && printed.contains("No error detected"), "\(printed)")
        #expect(try await MetadataSamples.sampleTags(in: tagged, ext: "webp") == MetadataSamples.expectedTags)
    }

    /// libwebp's `webpinfo` (Debian's `webp`), a strict container checker.
    static let webpinfo: String? = ["/usr/bin/webpinfo", "/usr/local/bin/webpinfo"].first { FileManager.default.isExecutableFile(atPath: $0) }
}
