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

    @Test(
        "an AVIF turned by XMP alone, or by irot and an Exif item saying the same, comes out upright once",
        arguments: ["orientation-6-xmp.avif", "orientation-6-exif-irot.avif"])
    func avifOtherSourcesUpright(fixture: String) throws {
        let image = try decoder.decode(Fixtures.bytes(fixture))
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient(alpha: true)) < 1.5)
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

    @Test("a bilevel TIFF is black where its bits say, min-is-black or min-is-white, with or without BitsPerSample")
    func tiffBilevel() throws {
        // 8×2: the first row's left half and the second row's right half are set bits.
        let bits: [UInt8] = [0xF0, 0x0F]
        for (photometric, setIsWhite) in [(UInt32(1), true), (0, false)] {
            for bitsPerSample in [UInt32(1), nil] {
                let bytes = BaselineTIFF.raw(
                    width: 8, height: 2, photometric: photometric, bitsPerSample: bitsPerSample, samples: 1, extraSample: nil,
                    data: bits)
                let image = try decoder.decode(bytes)
                let set: UInt8 = setIsWhite ? 255 : 0
                for x in 0..<8 {
                    #expect(image.pixel(x: x, y: 0).r == (x < 4 ? set : 255 - set), "photometric \(photometric), x \(x)")
                    #expect(image.pixel(x: x, y: 1).g == (x >= 4 ? set : 255 - set), "photometric \(photometric), x \(x)")
                }
            }
        }
    }

    @Test("grey with unassociated alpha keeps its grey; with associated alpha it is un-premultiplied")
    func tiffGreyAlpha() throws {
        // Pixels (grey, alpha): (32, 2), (73, 134), (200, 255), (0, 0).
        let straight = BaselineTIFF.raw(
            width: 4, height: 1, photometric: 1, bitsPerSample: 8, samples: 2, extraSample: 2,
            data: [32, 2, 73, 134, 200, 255, 0, 0])
        let image = try decoder.decode(straight)
        // libgd keeps 7 bits of alpha, so alpha may be one off; the grey must be exact.
        for (x, grey, alpha) in [(0, UInt8(32), 2), (1, 73, 134), (2, 200, 255)] {
            let p = image.pixel(x: x, y: 0)
            #expect(p.r == grey && p.g == grey && p.b == grey && abs(Int(p.a) - alpha) <= 1, "\(x): \(p)")
        }
        // The same colours stored premultiplied (73 · 134 / 255 = 38).
        let associated = BaselineTIFF.raw(
            width: 2, height: 1, photometric: 1, bitsPerSample: 8, samples: 2, extraSample: 1, data: [38, 134, 200, 255])
        let unpremultiplied = try decoder.decode(associated)
        #expect(abs(Int(unpremultiplied.pixel(x: 0, y: 0).r) - 73) <= 1)
        #expect(unpremultiplied.pixel(x: 1, y: 0) == RGBA(r: 200, g: 200, b: 200, a: 255))
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
