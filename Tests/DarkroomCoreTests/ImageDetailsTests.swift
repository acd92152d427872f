import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - ImageDetails

@Suite("ImageDetails reads bit depth, ICC profile name, alpha and frames from the container")
struct ImageDetailsTests {
    @Test("each fixture's details", arguments: [
        // (file, alpha, bit depth, profile name or nil, frames)
        ("gradient.jpg", false, 8, nil, 1), ("gradient-rgba16.png", true, 16, nil, 1),
        ("blocks-palette.png", false, 8, nil, 1), ("gradient-lossless.webp", true, 8, nil, 1),
        ("animated-3-frames.gif", true, 8, nil, 3), ("animated-2-frames.webp", false, 8, nil, 2),
        ("icc-adobe-rgb.jpg", false, 8, "Adobe RGB (1998) primaries", 1),
        ("icc-adobe-rgb.webp", false, 8, "Adobe RGB (1998) primaries", 1),
        ("icc-adobe-rgb.tiff", false, 8, "Adobe RGB (1998) primaries", 1),
        ("icc-adobe-rgb.avif", false, 8, "Adobe RGB (1998) primaries", 1),
        ("lut-cmyk-mab.jpg", false, 8, "Made-up CMYK (mAB, XYZ)", 1),
        ("gradient.heic", false, 8, nil, 1), ("gradient.bmp", false, 8, nil, 1), ("gradient-rgba.tga", true, 8, nil, 1),
        ("sequence-3-frames.avif", false, 8, nil, 3),
    ] as [(String, Bool, Int, String?, Int)])
    func details(file: String, alpha: Bool, bitDepth: Int, profile: String?, frames: Int) throws {
        let details = try ImageDetails(Fixtures.bytes(file))
        #expect(details.hasAlpha == alpha)
        #expect(details.bitDepth == bitDepth)
        #expect(details.hasICCProfile == (profile != nil))
        #expect(details.iccProfileName == profile)
        #expect(details.frameCount == frames)
    }

    @Test("a PNG's compressed profile is found; its iCCP name stands in for the desc")
    func pngProfile() throws {
        let details = try ImageDetails(Fixtures.bytes("icc-display-p3.png"))
        #expect(details.hasICCProfile)
        #expect(details.iccProfileName != nil)
    }

    @Test("every prefix of an animated or profiled file gives details or an error, never a crash", arguments: [
        "animated-3-frames.gif", "animated-2-frames.webp", "icc-adobe-rgb.jpg", "icc-adobe-rgb.avif", "icc-adobe-rgb.png",
    ])
    func prefixes(file: String) {
        let bytes = Fixtures.bytes(file)
        for length in 0..<bytes.count {
            if let details = try? ImageDetails(Array(bytes.prefix(length))) {
                #expect(details.frameCount >= 1)
            }
        }
    }
}
