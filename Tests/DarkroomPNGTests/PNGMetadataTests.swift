import DarkroomCore
import DarkroomPNG
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Metadata in PNG output

@Suite("The PNG encoder writes iCCP, eXIf and XMP iTXt chunks that readers find")
struct PNGMetadataTests {
    let options = EncodeOptions(format: .png, keepsMetadata: true)

    @Test("every part reads back as written (the profile inflated by libpng), pixels unchanged", arguments: [false, true])
    func roundTrip(alpha: Bool) throws {
        let image = alpha ? alphaRamp() : Pattern.gradient()
        let tagged = try PNGEncoder().encode(image, options: options, metadata: MetadataSamples.all)
        let header = try ImageProbe.probe(tagged)
        #expect(PNGDecoder().metadata(in: tagged, header: header) == MetadataSamples.all)
        let stored = DecodeOptions(appliesOrientation: false, colorProfiles: .ignore)
        #expect(try decodePNG(tagged, options: stored).pixels == image.pixels)
        #expect(PNGDecoder().metadata(in: try encodePNG(image), header: header).isEmpty)
    }

    @Test("the chunks come before the image data")
    func chunkOrder() throws {
        let tagged = try PNGEncoder().encode(Pattern.gradient(), options: options, metadata: MetadataSamples.all)
        let types = pngChunkTypes(tagged)
        let idat = try #require(types.firstIndex(of: "IDAT"))
        for type in ["iCCP", "eXIf", "iTXt"] {
            // Once each, before the image data (libpng 1.6.39 repeats eXIf after it when asked
            // to write the info at the end too).
            #expect(types.filter { $0 == type }.count == 1, "\(types)")
            let at = try #require(types.firstIndex(of: type), "no \(type) in \(types)")
            #expect(at < idat)
        }
    }

    @Test("a profile that does not fit the colour type is left out, and the file is still written")
    func mismatchedProfile() throws {
        let metadata = ImageMetadata(exif: MetadataSamples.exif(), iccProfile: MetadataSamples.cmyk)
        let tagged = try PNGEncoder().encode(Pattern.gradient(), options: options, metadata: metadata)
        let header = try ImageProbe.probe(tagged)
        #expect(PNGDecoder().metadata(in: tagged, header: header) == ImageMetadata(exif: MetadataSamples.exif()))
        #expect(!pngChunkTypes(tagged).contains("iCCP"))
    }

    @Test(
        "exiftool reads the make, orientation, creator and profile written",
        .enabled(if: MetadataSamples.exiftool != nil, "exiftool is not installed"))
    func exiftoolReads() async throws {
        let tagged = try PNGEncoder().encode(Pattern.gradient(), options: options, metadata: MetadataSamples.all)
        #expect(try await MetadataSamples.sampleTags(in: tagged, ext: "png") == MetadataSamples.expectedTags)
        // Each chunk once, before the image data: exiftool warns of text or EXIF after it.
        let folder = try TemporaryDirectory()
        try Data(tagged).write(to: URL(fileURLWithPath: folder.path("tagged.png")))
        let warning = try await MetadataSamples.exiftoolTags(folder.path("tagged.png"))["Warning"]
        #expect(warning == nil, "\(warning ?? "")")
    }

    /// The chunk types of a PNG, in file order.
    private func pngChunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            types.append(String(decoding: png[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }
}
