import DarkroomCore
import DarkroomGD
import DarkroomTestSupport
import Testing

@Suite("libgd decodes come out upright, or as stored when asked")
struct OrientationTests {
    let decoder = GDDecoder()

    @Test("EXIF orientation N in a JPEG is applied", arguments: Orientation.allCases)
    func jpegUpright(_ orientation: Orientation) throws {
        let image = try decoder.decode(Fixtures.bytes("orientation-\(orientation.rawValue).jpg"))
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient()) < 1)
    }

    @Test("appliesOrientation = false returns the stored JPEG pixels", arguments: Orientation.allCases)
    func jpegStored(_ orientation: Orientation) throws {
        let options = DecodeOptions(appliesOrientation: false)
        let image = try decoder.decode(Fixtures.bytes("orientation-\(orientation.rawValue).jpg"), options: options)
        let stored = Pattern.gradient().applying(inverse(of: orientation))
        #expect(image.size == stored.size)
        #expect(ImageComparison.meanAbsoluteError(image, stored) < 1)
    }

    @Test("AVIF rotation and mirroring (irot/imir) are probed as orientation N and applied", arguments: Orientation.allCases)
    func avifUpright(_ orientation: Orientation) throws {
        let bytes = Fixtures.bytes("orientation-\(orientation.rawValue).avif")
        let header = try ImageProbe.probe(bytes)
        #expect(header.orientation == orientation)
        #expect(header.uprightSize == PixelSize(width: 64, height: 48))
        let image = try decoder.decode(bytes)
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient()) < 1.5)
        let stored = try decoder.decode(bytes, options: DecodeOptions(appliesOrientation: false))
        #expect(ImageComparison.meanAbsoluteError(stored, Pattern.gradient().applying(inverse(of: orientation))) < 1.5)
    }

    @Test("the eXIf orientation of a PNG is applied")
    func pngUpright() throws {
        let image = try decoder.decode(Fixtures.bytes("orientation-6.png"))
        #expect(ImageComparison.maxAbsoluteError(image, Pattern.gradient(alpha: true)) <= 1)
    }

    @Test("a TIFF Orientation tag is applied exactly once", arguments: Orientation.allCases)
    func tiffUpright(_ orientation: Orientation) throws {
        let upright = Pattern.gradient()
        let bytes = BaselineTIFF.encode(upright.applying(inverse(of: orientation)), orientation: orientation)
        let image = try decoder.decode(bytes)
        #expect(image == upright)
    }

    @Test("appliesOrientation = false returns the stored TIFF pixels", arguments: Orientation.allCases)
    func tiffStored(_ orientation: Orientation) throws {
        let stored = Pattern.gradient().applying(inverse(of: orientation))
        let bytes = BaselineTIFF.encode(stored, orientation: orientation)
        let image = try decoder.decode(bytes, options: DecodeOptions(appliesOrientation: false))
        #expect(image == stored)
    }

    /// The stored pixels that `orientation` turns into the upright image.
    private func inverse(of orientation: Orientation) -> Orientation {
        switch orientation {
        case .right: .left
        case .left: .right
        default: orientation
        }
    }
}
