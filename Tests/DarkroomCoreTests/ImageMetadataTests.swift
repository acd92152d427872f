import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Metadata an output keeps

@Suite("Kept metadata: EXIF orientation reset to 1, XMP as is, an ICC profile only while it describes the pixels")
struct ImageMetadataTests {
    @Test("the orientation is reset to 1 in either byte order, and no other byte changes", arguments: [true, false])
    func orientationReset(bigEndian: Bool) {
        let exif = MetadataSamples.exif(orientation: 6, bigEndian: bigEndian)
        #expect(ExifOrientation.read(exif) == Orientation(exifValue: 6))
        let reset = ExifOrientation.resettingToUp(exif)
        #expect(ExifOrientation.read(reset) == .up)
        #expect(reset.count == exif.count)
        // Only the orientation value's low byte differs: 6 → 1.
        let changed = zip(exif, reset).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(changed.count == 1)
        #expect(changed.first?.element.1 == 1)
        #expect(reset == MetadataSamples.exif(orientation: 1, bigEndian: bigEndian))
    }

    @Test("a block without an orientation stays as it is, and bytes that are no TIFF structure are dropped")
    func noOrientation() {
        let exif = MetadataSamples.exif(orientation: nil)
        #expect(ExifOrientation.resettingToUp(exif) == exif)
        let junk: [UInt8] = Array("not a TIFF header at all".utf8)
        #expect(!ExifOrientation.isTIFFStructure(junk))
        #expect(ImageMetadata(exif: junk).kept(afterDecodingWith: DecodeOptions()).exif == nil)
        // Cut inside IFD0's entry count: not a structure either.
        #expect(!ExifOrientation.isTIFFStructure(Array(exif.prefix(9))))
    }

    @Test("the orientation stays when the decode kept the stored pixels (--no-auto-orient)")
    func orientationKeptWhenNotApplied() {
        let kept = MetadataSamples.all.kept(afterDecodingWith: DecodeOptions(appliesOrientation: false))
        #expect(kept.exif == MetadataSamples.exif(orientation: 6))
        #expect(ExifOrientation.read(kept.exif!) == Orientation(exifValue: 6))
    }

    @Test("XMP is kept byte for byte")
    func xmpKept() {
        #expect(MetadataSamples.all.kept(afterDecodingWith: DecodeOptions()).xmp == MetadataSamples.xmp)
    }

    @Test("an RGB profile converted to sRGB is dropped; kept when the decode leaves the pixels as stored")
    func iccKeptOnlyUnconverted() {
        let metadata = ImageMetadata(iccProfile: MetadataSamples.adobeRGB)
        #expect(metadata.kept(afterDecodingWith: DecodeOptions()).iccProfile == nil)
        #expect(metadata.kept(afterDecodingWith: DecodeOptions(colorProfiles: .ignore)).iccProfile == MetadataSamples.adobeRGB)
    }

    @Test("a CMYK profile never describes RGB output; damaged profile bytes are dropped")
    func iccOtherSpacesDropped() {
        let ignore = DecodeOptions(colorProfiles: .ignore)
        #expect(ImageMetadata(iccProfile: MetadataSamples.cmyk).kept(afterDecodingWith: ignore).iccProfile == nil)
        let damaged = Array(MetadataSamples.adobeRGB.prefix(100))
        #expect(ImageMetadata(iccProfile: damaged).kept(afterDecodingWith: ignore).iccProfile == nil)
    }

    @Test("strip=false is in the identifier of formats that write metadata, only when set")
    func identifier() {
        #expect(EncodeOptions(format: .jpeg).identifier == "jpeg(progressive=false,quality=80)")
        #expect(EncodeOptions(format: .jpeg, keepsMetadata: true).identifier == "jpeg(progressive=false,quality=80,strip=false)")
        #expect(EncodeOptions(format: .png, keepsMetadata: true).identifier == "png(compression=6,strip=false)")
        #expect(EncodeOptions(format: .webp, lossless: true, keepsMetadata: true).identifier == "webp(lossless=true,strip=false)")
        #expect(EncodeOptions(format: .gif, keepsMetadata: true).identifier == "gif()")
    }

    @Test("reading a JPEG finds its EXIF block without the Exif prefix")
    func readsJPEGExif() throws {
        let metadata = ImageMetadata(reading: Fixtures.bytes("orientation-6.jpg"), format: .jpeg)
        let exif = try #require(metadata.exif)
        #expect(ExifOrientation.isTIFFStructure(exif))
        #expect(ExifOrientation.read(exif) == Orientation(exifValue: 6))
        #expect(metadata.xmp == nil)
    }

    @Test("reading a PNG finds an eXIf chunk written after the image data")
    func readsPNGExifAfterIDAT() throws {
        let exif = try #require(ImageMetadata(reading: Fixtures.bytes("orientation-6.png"), format: .png).exif)
        #expect(ExifOrientation.read(exif) == Orientation(exifValue: 6))
    }

    @Test("reading an AVIF finds its Exif item past the item's TIFF-header offset, and its XMP item")
    func readsAVIFItems() throws {
        let exif = try #require(ImageMetadata(reading: Fixtures.bytes("orientation-6-exif-irot.avif"), format: .avif).exif)
        #expect(ExifOrientation.isTIFFStructure(exif))
        #expect(ExifOrientation.read(exif) == Orientation(exifValue: 6))
        let xmp = try #require(ImageMetadata(reading: Fixtures.bytes("orientation-6-xmp.avif"), format: .avif).xmp)
        #expect(XMPOrientation.read(xmp) == .right)
    }

    @Test("reading finds the ICC profile where EmbeddedICCProfile does", arguments: ["icc-adobe-rgb.jpg", "icc-adobe-rgb.webp", "icc-adobe-rgb.avif"])
    func readsProfiles(fixture: String) throws {
        let bytes = Fixtures.bytes(fixture)
        let format = try ImageProbe.probe(bytes).format
        let metadata = ImageMetadata(reading: bytes, format: format)
        #expect(metadata.iccProfile != nil)
        #expect(metadata.iccProfile == EmbeddedICCProfile.bytes(in: bytes, format: format))
    }

    @Test("reading never traps on cut or scrambled containers")
    func damagedContainers() {
        for fixture in ["orientation-6.jpg", "icc-adobe-rgb.webp", "orientation-6.png", "orientation-6.avif"] {
            let bytes = Fixtures.bytes(fixture)
            let format = (try? ImageProbe.probe(bytes).format) ?? .jpeg
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
                _ = ImageMetadata(reading: Array(bytes.prefix(cut)), format: format)
                var flipped = bytes
                flipped[cut] ^= 0xFF
                _ = ImageMetadata(reading: flipped, format: format)
            }
        }
    }
}
