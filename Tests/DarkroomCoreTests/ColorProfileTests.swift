import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - Parsing

@Suite("An embedded ICC profile is read for what Darkroom can apply")
struct ICCProfileParsingTests {
    @Test("A matrix/TRC RGB profile gives its colorants, curves and mluc description")
    func matrixProfile() throws {
        let bytes = ProfileBytes.rgb(
            red: (0.60974, 0.31111, 0.01947), green: (0.20528, 0.62567, 0.06087), blue: (0.14919, 0.06322, 0.74457),
            curve: ProfileBytes.gamma(563.0 / 256), description: ProfileBytes.mluc("Adobe RGB (1998)"))
        let profile = try #require(ICCProfile(bytes: bytes))
        #expect(profile.description == "Adobe RGB (1998)")
        guard case .rgb(let red, _, let blue, let curves) = profile.colorSpace else {
            Issue.record("expected an RGB profile, got \(profile.colorSpace)")
            return
        }
        let redX: Double = red.x, blueZ: Double = blue.z
        #expect(abs(redX - 0.60974) < 1e-4)
        #expect(abs(blueZ - 0.74457) < 1e-4)
        let adobe = ToneCurve.gamma(563.0 / 256)
        #expect(curves == [adobe, adobe, adobe])
    }

    @Test("A grey profile gives its kTRC")
    func greyProfile() throws {
        let bytes = ProfileBytes.profile(space: "GRAY", tags: [("kTRC", ProfileBytes.gamma(1.8))])
        let profile = try #require(ICCProfile(bytes: bytes))
        // u8Fixed8: 1.8 is stored as 461/256.
        #expect(profile.colorSpace == .gray(.gamma(461.0 / 256)))
    }

    @Test(
        "Profiles it cannot apply are nil, not errors",
        arguments: [
            ("CMYK", ProfileBytes.profile(space: "CMYK", tags: [("kTRC", ProfileBytes.gamma(1.8))])),
            ("Lab connection space", ProfileBytes.profile(space: "GRAY", pcs: "Lab ", tags: [("kTRC", ProfileBytes.gamma(1.8))])),
            ("lookup tables only", ProfileBytes.profile(space: "RGB ", tags: [("A2B0", [UInt8](repeating: 0, count: 32))])),
            ("no curves", ProfileBytes.profile(space: "RGB ", tags: [("rXYZ", ProfileBytes.xyz(0.4, 0.2, 0))])),
            ("cut short", Array(ProfileBytes.rgb(red: ProfileBytes.sRGBRed, green: ProfileBytes.sRGBGreen, blue: ProfileBytes.sRGBBlue, curve: ProfileBytes.gamma(2.2)).prefix(150))),
            ("not a profile", [UInt8](repeating: 0x41, count: 400)),
        ])
    func unusable(_ name: String, _ bytes: [UInt8]) {
        #expect(ICCProfile(bytes: bytes) == nil, "\(name)")
    }

    @Test("A tag pointing past the end makes the profile unusable")
    func tagPastTheEnd() {
        var bytes = ProfileBytes.profile(space: "GRAY", tags: [("kTRC", ProfileBytes.gamma(1.8))])
        bytes[132 + 4 ..< 132 + 8] = ArraySlice(ProfileBytes.u32(10_000))
        #expect(ICCProfile(bytes: bytes) == nil)
    }
}

// MARK: - Curves

@Suite("ICC tone curves evaluate as the ICC specification defines them")
struct ToneCurveTests {
    @Test("The sRGB para type 3 curve matches IEC 61966-2-1 at both ends of its pieces")
    func sRGBCurve() {
        #expect(abs(ToneCurve.sRGB.linear(0.04) - 0.04 / 12.92) < 1e-9)
        #expect(abs(ToneCurve.sRGB.linear(0.5) - 0.214041) < 1e-5)
        #expect(ToneCurve.sRGB.linear(1) == 1)
    }

    @Test("Sampled curves interpolate between their entries")
    func sampled() {
        let curve = ToneCurve.sampled([0, 65535, 0])
        #expect(abs(curve.linear(0.25) - 0.5) < 1e-9)
        #expect(curve.linear(0.5) == 1)
    }

    @Test("Results stay in 0…1 whatever the parameters")
    func clamped() {
        #expect(ToneCurve.parametric(g: 1, a: 2, b: 0, c: 0, d: 0, e: 0.5, f: 0).linear(1) == 1)
        #expect(ToneCurve.parametric(g: 1, a: 1, b: 0, c: -1, d: 0.5, e: 0, f: 0).linear(0.2) == 0)
        #expect(ToneCurve.gamma(.nan).linear(0.5) == 0)
    }
}

// MARK: - Converting

@Suite("Embedded profiles convert pixels to sRGB")
struct SRGBConversionTests {
    private func single(_ r: UInt8, _ g: UInt8, _ b: UInt8, a: UInt8 = 255) throws -> Image {
        try Image(width: 1, height: 1, pixels: [r, g, b, a])
    }

    @Test("An sRGB profile (table or parametric curve) changes nothing, so there is no conversion")
    func sRGBIsSkipped() {
        let table = (0..<1024).map { index -> Int in Int((ToneCurve.sRGB.linear(Double(index) / 1023) * 65535).rounded()) }
        for curve in [ProfileBytes.sRGBCurve, ProfileBytes.table(table)] {
            let bytes = ProfileBytes.rgb(red: ProfileBytes.sRGBRed, green: ProfileBytes.sRGBGreen, blue: ProfileBytes.sRGBBlue, curve: curve)
            #expect(ICCProfile(bytes: bytes).flatMap(SRGBConversion.init(from:)) == nil)
        }
    }

    @Test("sRGB primaries with linear curves: 50% linear grey becomes sRGB 188, alpha untouched")
    func linearCurves() throws {
        let bytes = ProfileBytes.rgb(red: ProfileBytes.sRGBRed, green: ProfileBytes.sRGBGreen, blue: ProfileBytes.sRGBBlue, curve: ProfileBytes.table([0, 65535]))
        let conversion = try #require(ICCProfile(bytes: bytes).flatMap(SRGBConversion.init(from:)))
        let converted = conversion.apply(to: try single(128, 0, 255, a: 77))
        #expect(converted.pixel(x: 0, y: 0) == RGBA(r: 188, g: 0, b: 255, a: 77))
    }

    @Test("Wide-gamut primaries: neutral stays neutral, greens are clipped to the sRGB gamut as littleCMS does")
    func wideGamut() throws {
        let bytes = ProfileBytes.rgb(
            red: (0.60974, 0.31111, 0.01947), green: (0.20528, 0.62567, 0.06087), blue: (0.14919, 0.06322, 0.74457),
            curve: ProfileBytes.sRGBCurve)
        let conversion = try #require(ICCProfile(bytes: bytes).flatMap(SRGBConversion.init(from:)))
        let grey = conversion.apply(to: try single(128, 128, 128)).pixel(x: 0, y: 0)
        #expect(abs(Int(grey.r) - 128) <= 1 && grey.r == grey.g && grey.g == grey.b)
        // Adobe RGB's green lies outside sRGB: red goes negative and is clipped, green saturates.
        let green = conversion.apply(to: try single(0, 255, 0)).pixel(x: 0, y: 0)
        #expect(green.r == 0 && green.g == 255 && green.b < 80)
        // A mid green in Adobe RGB is a more saturated green in sRGB (littleCMS: 0, 160, 50).
        let mid = conversion.apply(to: try single(60, 160, 60)).pixel(x: 0, y: 0)
        #expect(mid.r <= 1 && abs(Int(mid.g) - 160) <= 1 && abs(Int(mid.b) - 50) <= 1)
    }

    @Test("A grey profile maps each level through its curve into sRGB")
    func grey() throws {
        let bytes = ProfileBytes.profile(space: "GRAY", tags: [("kTRC", ProfileBytes.gamma(1.8))])
        let conversion = try #require(ICCProfile(bytes: bytes).flatMap(SRGBConversion.init(from:)))
        // 128/255 at gamma 1.8 is 28.9% linear light, which sRGB writes as 146.
        let pixel = conversion.apply(to: try single(128, 128, 128)).pixel(x: 0, y: 0)
        #expect(pixel == RGBA(r: 146, g: 146, b: 146, a: 255))
    }

    @Test("The conversion keeps the size, the alpha flag and shrunkFrom")
    func keepsImageFacts() throws {
        let bytes = ProfileBytes.profile(space: "GRAY", tags: [("kTRC", ProfileBytes.gamma(1.0))])
        let conversion = try #require(ICCProfile(bytes: bytes).flatMap(SRGBConversion.init(from:)))
        let image = try Image(width: 2, height: 1, pixels: [10, 20, 30, 40, 50, 60, 70, 80], hasAlpha: true)
            .shrunk(from: PixelSize(width: 9, height: 4))
        let converted = conversion.apply(to: image)
        #expect(converted.size == image.size && converted.hasAlpha && converted.shrunkFrom == image.shrunkFrom)
        #expect(converted.pixels[3] == 40 && converted.pixels[7] == 80)
    }

    @Test("DecodeOptions applies a profile only when asked to")
    func options() throws {
        let bytes = ProfileBytes.profile(space: "GRAY", tags: [("kTRC", ProfileBytes.gamma(1.8))])
        let image = try single(128, 128, 128)
        #expect(DecodeOptions().convertToSRGB(image, iccProfile: bytes).pixel(x: 0, y: 0).r == 146)
        #expect(DecodeOptions(colorProfiles: .ignore).convertToSRGB(image, iccProfile: bytes) == image)
        #expect(DecodeOptions().convertToSRGB(image, iccProfile: nil) == image)
        #expect(DecodeOptions().convertToSRGB(image, iccProfile: [1, 2, 3]) == image)
    }

    @Test("A grey profile leaves colour pixels alone, as browsers and libpng ignore it; grey pixels get it")
    func greyProfileOnColour() throws {
        let bytes = ProfileBytes.profile(space: "GRAY", tags: [("kTRC", ProfileBytes.gamma(3.0))])
        let colour = try Image(width: 2, height: 1, pixels: [128, 128, 128, 255, 200, 100, 50, 255], hasAlpha: false)
        #expect(DecodeOptions().convertToSRGB(colour, iccProfile: bytes) == colour)
        let grey = try single(128, 128, 128)
        #expect(DecodeOptions().convertToSRGB(grey, iccProfile: bytes) != grey)
    }

    @Test("Colorants that do not span the colour space make the profile unusable, not the image black")
    func singularColorants() throws {
        let zero = ProfileBytes.rgb(red: (0, 0, 0), green: (0, 0, 0), blue: (0, 0, 0), curve: ProfileBytes.gamma(2.2))
        let twins = ProfileBytes.rgb(red: ProfileBytes.sRGBRed, green: ProfileBytes.sRGBRed, blue: ProfileBytes.sRGBBlue, curve: ProfileBytes.gamma(2.2))
        let image = try single(200, 100, 50)
        for bytes in [zero, twins] {
            #expect(ICCProfile(bytes: bytes).flatMap(SRGBConversion.init(from:)) == nil)
            #expect(DecodeOptions().convertToSRGB(image, iccProfile: bytes) == image)
        }
    }
}

// MARK: - Code points

@Suite("nclx colour code points become the equivalent profile")
struct CICPColorTests {
    private func colorants(_ colour: CICPColor) throws -> [ICCProfile.XYZ] {
        let profile = try #require(colour.profile)
        guard case .rgb(let red, let green, let blue, _) = profile.colorSpace else {
            Issue.record("expected an RGB profile")
            return []
        }
        return [red, green, blue]
    }

    private func expectClose(_ actual: [ICCProfile.XYZ], _ expected: [(Double, Double, Double)]) {
        for (a, e) in zip(actual, expected) {
            let error = max(abs(a.x - e.0), abs(a.y - e.1), abs(a.z - e.2))
            #expect(error < 0.001, "\(a) vs \(e)")
        }
    }

    @Test("Display P3 (12) gives the Bradford-adapted colorants Apple's profile writes")
    func displayP3() throws {
        expectClose(try colorants(CICPColor(primaries: 12, transfer: 13)),
            [(0.51512, 0.24120, -0.00105), (0.29198, 0.69225, 0.04189), (0.15710, 0.06657, 0.78407)])
    }

    @Test("BT.2020 (9) gives its published D50 colorants")
    func bt2020() throws {
        expectClose(try colorants(CICPColor(primaries: 9, transfer: 1)),
            [(0.6734, 0.2790, -0.0019), (0.1656, 0.6753, 0.0300), (0.1251, 0.0457, 0.7973)])
    }

    @Test("sRGB and unspecified primaries, and HDR transfers, need or get no conversion")
    func none() {
        #expect(CICPColor(primaries: 1, transfer: 13).profile == nil)
        #expect(CICPColor(primaries: 2, transfer: 2).profile == nil)
        #expect(CICPColor(primaries: 9, transfer: 16).profile == nil)
        #expect(CICPColor(primaries: 9, transfer: 18).profile == nil)
        #expect(CICPColor(primaries: 99, transfer: 13).profile == nil)
    }

    @Test("Display P3 by code points converts like a Display P3 ICC profile")
    func sameAsProfile() throws {
        let icc = ProfileBytes.rgb(
            red: (0.51512, 0.24120, -0.00105), green: (0.29198, 0.69225, 0.04189), blue: (0.15710, 0.06657, 0.78407),
            curve: ProfileBytes.sRGBCurve)
        let fromICC = try #require(ICCProfile(bytes: icc).flatMap(SRGBConversion.init(from:)))
        let fromCICP = try #require(CICPColor(primaries: 12, transfer: 13).profile.flatMap(SRGBConversion.init(from:)))
        let image = Image(width: 64, height: 64, hasAlpha: false) { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 37 &+ index >> 5) }
        }
        let a = fromICC.apply(to: image).pixels, b = fromCICP.apply(to: image).pixels
        #expect(zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }
}
