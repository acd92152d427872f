import DarkroomCore
import DarkroomPNG
import DarkroomTestSupport
import Testing

// MARK: - Shrink-on-load

@Suite("PNG shrinks on load by averaging whole blocks as the rows are read")
struct PNGShrinkOnLoadTests {
    /// A box average of `factor`×`factor` blocks (edge blocks average what they have; the
    /// decoder only picks factors that leave none), weighted by alpha, in plain Swift: the
    /// reference for the C wall's streaming version.
    static func boxAverage(_ image: Image, factor: Int) -> Image {
        let width = (image.width + factor - 1) / factor, height = (image.height + factor - 1) / factor
        return Image(width: width, height: height, hasAlpha: image.hasAlpha) { out in
            for oy in 0..<height {
                for ox in 0..<width {
                    var sums = [0, 0, 0, 0], count = 0
                    for y in oy * factor..<min(image.height, (oy + 1) * factor) {
                        for x in ox * factor..<min(image.width, (ox + 1) * factor) {
                            let i = (y * image.width + x) * 4
                            let a = image.hasAlpha ? Int(image.pixels[i + 3]) : 1
                            for c in 0..<3 { sums[c] += Int(image.pixels[i + c]) * a }
                            sums[3] += Int(image.pixels[i + 3])
                            count += 1
                        }
                    }
                    let o = (oy * width + ox) * 4
                    let weight = image.hasAlpha ? sums[3] : count
                    for c in 0..<3 { out[o + c] = weight == 0 ? 0 : UInt8((sums[c] + weight / 2) / weight) }
                    out[o + 3] = UInt8((sums[3] + count / 2) / count)
                }
            }
        }
    }

    @Test("the factor is the largest that keeps the hint, upright", arguments: [
        (PixelSize(width: 5120, height: 2880), Orientation.up, PixelSize(width: 896, height: 504), 5),
        (PixelSize(width: 3840, height: 2160), Orientation.up, PixelSize(width: 896, height: 504), 4),
        (PixelSize(width: 100, height: 100), Orientation.up, PixelSize(width: 60, height: 60), 1),
        (PixelSize(width: 4000, height: 1000), Orientation.right, PixelSize(width: 500, height: 1000), 2),
        // Only factors that divide both sides: 3 would leave partial blocks, 2 does not.
        (PixelSize(width: 64, height: 48), Orientation.up, PixelSize(width: 21, height: 16), 2),
        (PixelSize(width: 451, height: 300), Orientation.up, PixelSize(width: 112, height: 75), 1),
        (PixelSize(width: 301, height: 203), Orientation.up, PixelSize(width: 40, height: 25), 7),
    ])
    func factor(stored: PixelSize, orientation: Orientation, hint: PixelSize, expected: Int) {
        let header = ImageHeader(format: .png, width: stored.width, height: stored.height, orientation: orientation)
        #expect(PNGDecoder.reductionFactor(for: header, sizeHint: hint) == expected)
        #expect(PNGDecoder.reductionFactor(for: header, sizeHint: nil) == 1)
    }

    @Test("an opaque photo decodes to exactly the box average of the full decode", arguments: [2, 3, 7])
    func opaqueMatchesBoxAverage(factor: Int) throws {
        let photo = Pattern.photo(width: 294, height: 210)  // 2 · 3 · 7² and 2 · 3 · 5 · 7
        let bytes = try encodePNG(photo)
        let hint = PixelSize(width: photo.width / factor, height: photo.height / factor)
        let reduced = try decodePNG(bytes, options: DecodeOptions(sizeHint: hint))
        #expect(reduced.size == PixelSize(width: 294 / factor, height: 210 / factor))
        #expect(reduced.width >= hint.width && reduced.height >= hint.height)
        #expect(!reduced.hasAlpha)
        #expect(reduced == Self.boxAverage(try decodePNG(bytes), factor: factor))
    }

    @Test("translucent pixels are averaged weighted by alpha: transparent colour does not bleed")
    func alphaWeighted() throws {
        let ramp = alphaRamp()  // 256×4, alpha = x, colour under alpha 0 too
        let bytes = try encodePNG(ramp)
        let reduced = try decodePNG(bytes, options: DecodeOptions(sizeHint: PixelSize(width: 64, height: 1)))
        #expect(reduced.size == PixelSize(width: 64, height: 1))
        #expect(reduced.hasAlpha)
        #expect(reduced == Self.boxAverage(ramp, factor: 4))
    }

    @Test("interlaced files and hints at full size decode at full size")
    func fullSizeCases() throws {
        let photo = Pattern.photo(width: 120, height: 80)
        let interlaced = try decodePNG(try encodePNG(photo, interlaced: true),
                                       options: DecodeOptions(sizeHint: PixelSize(width: 30, height: 20)))
        #expect(interlaced == photo)
        let fullHint = try decodePNG(try encodePNG(photo), options: DecodeOptions(sizeHint: photo.size))
        #expect(fullHint == photo)
    }

    @Test("every colour type shrinks to the box average of its full decode", arguments: [
        "gradient-rgb.png", "gradient-rgba.png", "gradient-rgba16.png", "gradient-gray-alpha.png", "blocks-palette.png",
    ])
    func everyColorType(fixture: String) throws {
        // 8-bit RGB and RGBA take the libdeflate path; the others need libpng's transforms.
        let bytes = Fixtures.bytes(fixture)
        let full = try decodePNG(bytes)
        let hint = PixelSize(width: full.width / 4, height: full.height / 4)  // 64×48: 4 divides both
        let reduced = try decodePNG(bytes, options: DecodeOptions(sizeHint: hint))
        let expected = Self.boxAverage(full, factor: 4)
        #expect(reduced.size == expected.size)
        #expect(reduced.pixels == expected.pixels)
    }

    @Test("rows under every filter type, and every pair of them, shrink to the box average of libpng's decode",
          arguments: [(UInt8(2), 3), (UInt8(6), 4)])
    func everyFilterType(colorType: UInt8, channels: Int) throws {
        // 25 row pairs, one of each (upper, lower) combination, then a lone last row: 51 rows.
        let width = 34, height = 51
        var filters: [UInt8] = []
        for pair in 0..<25 { filters += [UInt8(pair / 5), UInt8(pair % 5)] }
        filters.append(4)
        var state: UInt32 = 0x2545_F491
        let rows = (0..<height).map { y in
            (0..<width * channels).map { i -> UInt8 in
                state = state &* 1_664_525 &+ 1_013_904_223
                // Flat stretches too, where Paeth's distances tie.
                return (i / channels) % 7 < 2 ? UInt8(truncatingIfNeeded: y * 3) : UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        let bytes = PNGFileBuilder(width: width, height: height, bitDepth: 8, colorType: colorType)
            .file(rows: rows, filters: filters)
        let full = try decodePNG(bytes)
        var expectedPixels: [UInt8] = []
        for row in rows {
            for i in stride(from: 0, to: row.count, by: channels) {
                expectedPixels += [row[i], row[i + 1], row[i + 2], channels == 4 ? row[i + 3] : 255]
            }
        }
        #expect(full.pixels == expectedPixels)  // libpng agrees with the test's filters
        let reduced = try decodePNG(bytes, options: DecodeOptions(sizeHint: PixelSize(width: 2, height: 3)))
        #expect(reduced.size == PixelSize(width: 2, height: 3))  // factor 17: rows go through in pairs and one alone
        #expect(reduced == Self.boxAverage(full, factor: 17))
    }

    @Test("a flipped IDAT CRC byte is still reported as corrupt when reduced")
    func flippedCRC() throws {
        var bytes = try encodePNG(Pattern.photo(width: 64, height: 64))
        let offset = try #require(pngChunkOffset(bytes, type: "IDAT"))
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
        bytes[offset + 8 + length] ^= 0x01
        #expect(throws: DarkroomError.corrupt(.png, detail: "IDAT: CRC error")) {
            try decodePNG(bytes, options: DecodeOptions(sizeHint: PixelSize(width: 16, height: 16)))
        }
    }

    @Test("a truncated file still throws when reduced")
    func truncatedThrows() throws {
        let bytes = try encodePNG(Pattern.photo(width: 200, height: 200))
        let cut = Array(bytes[..<(bytes.count * 2 / 3)])
        #expect(throws: DarkroomError.self) {
            try decodePNG(cut, options: DecodeOptions(sizeHint: PixelSize(width: 50, height: 50)))
        }
    }
}
