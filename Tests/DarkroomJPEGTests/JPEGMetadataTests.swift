import DarkroomCore
import DarkroomJPEG
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Metadata in JPEG output

@Suite("The JPEG encoder writes EXIF, XMP and ICC segments that readers find")
struct JPEGMetadataTests {
    let options = EncodeOptions(format: .jpeg, quality: 90, keepsMetadata: true)

    @Test("every part reads back as written, and the pixels are those of a plain encode")
    func roundTrip() throws {
        let image = Pattern.photo(width: 96, height: 64)
        let tagged = try JPEGEncoder().encode(image, options: options, metadata: MetadataSamples.all)
        let plain = try JPEGEncoder().encode(image, options: options)
        #expect(ImageMetadata(reading: tagged, format: .jpeg) == MetadataSamples.all)
        #expect(ImageMetadata(reading: plain, format: .jpeg).isEmpty)
        let decoding = DecodeOptions(appliesOrientation: false, colorProfiles: .ignore)
        #expect(try JPEGTesting.decode(bytes: tagged, options: decoding) == JPEGTesting.decode(bytes: plain, options: decoding))
        #expect(JPEGEncoder().writesMetadata)
    }

    @Test("JFIF's APP0 stays the first segment, the metadata right after it")
    func segmentOrder() throws {
        let tagged = try JPEGEncoder().encode(Pattern.gradient(), options: options, metadata: MetadataSamples.all)
        #expect(Array(tagged.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE0])
        let app0Length = Int(tagged[4]) << 8 | Int(tagged[5])
        #expect(Array(tagged[(4 + app0Length)..<(6 + app0Length)]) == [0xFF, 0xE1])
    }

    @Test("a profile larger than one segment is split into numbered APP2 chunks and reassembled")
    func largeProfile() throws {
        // A real profile with 150 kB of padding after its tags (ICC readers go by the tag table).
        var profile = MetadataSamples.adobeRGB + [UInt8](repeating: 0x5A, count: 150_000)
        let size = profile.count
        profile[0..<4] = [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        let tagged = try JPEGEncoder().encode(Pattern.gradient(), options: options, metadata: ImageMetadata(iccProfile: profile))
        #expect(EmbeddedICCProfile.bytes(in: tagged, format: .jpeg) == profile)
        let chunks = tagged.indices.dropLast(14).filter { tagged[$0] == 0xFF && tagged[$0 + 1] == 0xE2 }
        #expect(chunks.count == 3)
    }

    @Test("an EXIF block too large for a segment is left out, and the rest is written")
    func oversizedExif() throws {
        let huge = MetadataSamples.exif() + [UInt8](repeating: 0, count: 70_000)
        let metadata = ImageMetadata(exif: huge, xmp: MetadataSamples.xmp)
        let tagged = try JPEGEncoder().encode(Pattern.gradient(), options: options, metadata: metadata)
        #expect(ImageMetadata(reading: tagged, format: .jpeg) == ImageMetadata(xmp: MetadataSamples.xmp))
    }

    @Test("without EXIF, XMP's tiff:Orientation turns the picture upright; with EXIF, EXIF decides")
    func xmpOrientation() throws {
        let stored = Pattern.gradient().applying(.left)
        let packet = Array(#"<x:xmpmeta><rdf:Description><tiff:Orientation>6</tiff:Orientation></rdf:Description></x:xmpmeta>"#.utf8)
        let tagged = try JPEGEncoder().encode(stored, options: options, metadata: ImageMetadata(xmp: packet))
        #expect(try ImageProbe.probe(tagged).orientation == .right)
        let upright = try JPEGTesting.decode(bytes: tagged)
        #expect(upright.size == PixelSize(width: 64, height: 48))
        #expect(ImageComparison.meanAbsoluteError(upright, Pattern.gradient()) < 2)
        let both = try JPEGEncoder().encode(
            stored, options: options, metadata: ImageMetadata(exif: MetadataSamples.exif(orientation: 1), xmp: packet))
        #expect(try ImageProbe.probe(both).orientation == .up)
    }

    @Test(
        "exiftool reads the make, orientation, creator and profile written",
        .enabled(if: MetadataSamples.exiftool != nil, "exiftool is not installed"))
    func exiftoolReads() async throws {
        let tagged = try JPEGEncoder().encode(Pattern.gradient(), options: options, metadata: MetadataSamples.all)
        #expect(try await MetadataSamples.sampleTags(in: tagged, ext: "jpg") == MetadataSamples.expectedTags)
    }
}
