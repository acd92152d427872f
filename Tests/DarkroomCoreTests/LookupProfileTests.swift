import DarkroomCore
import DarkroomTestSupport
import Testing

#if canImport(Glibc)
import Glibc  // pow
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Parsing and evaluating

@Suite("Lookup-table profiles (A2B0) are read and evaluated as the ICC specification defines them")
struct LookupProfileTests {
    private func pipeline(_ bytes: [UInt8]) throws -> ICCLookupPipeline {
        let profile = try #require(ICCProfile(bytes: bytes))
        guard case .lookup(let pipeline) = profile.colorSpace else {
            Issue.record("expected a lookup profile, got \(profile.colorSpace)")
            throw CancellationError()
        }
        return pipeline
    }

    private func expectXYZ(_ actual: (x: Double, y: Double, z: Double), _ expected: (Double, Double, Double), within tolerance: Double = 1e-3) {
        let error = max(abs(actual.x - expected.0), abs(actual.y - expected.1), abs(actual.z - expected.2))
        #expect(error < tolerance, "\(actual) vs \(expected)")
    }

    @Test("CMYK mft2 with a Lab connection space: no ink is the D50 white, black ink interpolates through L*")
    func cmykLab() throws {
        // L* falls linearly with K alone; C, M and Y change nothing.
        let bytes = LookupBytes.profile(space: "CMYK", pcs: "Lab ", a2b0: LookupBytes.mft2(channels: 4, points: 2) { device in
            LookupBytes.lab16(100 * (1 - device[3]), 0, 0)
        })
        let lookup = try pipeline(bytes)
        #expect(lookup.inputChannels == 4)
        expectXYZ(lookup.connectionSpaceXYZ([0, 0, 0, 0]), (0.9642, 1, 0.8249))
        expectXYZ(lookup.connectionSpaceXYZ([1, 1, 1, 1]), (0, 0, 0))
        // L* 50 is Y = (66/116)³ = 0.18419.
        let y = 0.18419
        expectXYZ(lookup.connectionSpaceXYZ([0.3, 0.9, 0.1, 0.5]), (0.9642 * y, y, 0.8249 * y))
    }

    @Test("Tetrahedral interpolation reproduces an affine table exactly, for RGB and CMYK", arguments: [3, 4])
    func affineTables(channels: Int) throws {
        func affine(_ d: [Double]) -> LookupBytes.Node {
            let sum = d.enumerated().reduce(0.0) { $0 + $1.element * Double($1.offset + 1) } / Double(channels * (channels + 1) / 2)
            return (sum, 0.2 + 0.6 * d[0], 1 - 0.5 * d[channels - 1])
        }
        let space = channels == 4 ? "CMYK" : "RGB "
        let lookup = try pipeline(LookupBytes.profile(space: space, pcs: "XYZ ", a2b0: LookupBytes.mft2(channels: channels, points: 5, table: affine)))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let device = (0..<channels).map { _ in Double.random(in: 0...1, using: &generator) }
            let expected = affine(device), scale = 65535.0 / 32768
            expectXYZ(lookup.connectionSpaceXYZ(device), (expected.0 * scale, expected.1 * scale, expected.2 * scale), within: 1e-4)
        }
    }

    @Test("mAB runs A curves, the matrix with its offset, then B curves, in the XYZ encoding")
    func aToB() throws {
        let gamma2 = ProfileBytes.para(0, [2])
        let bytes = LookupBytes.profile(space: "RGB ", pcs: "XYZ ", a2b0: LookupBytes.mAB(
            aCurve: gamma2, matrix: [0.5, 0, 0, 0, 0.25, 0, 0, 0, 1], offset: [0.1, 0, 0]))
        let lookup = try pipeline(bytes)
        // (0.5, 1, 0.2) → A curves (0.25, 1, 0.04) → matrix (0.225, 0.25, 0.04) → ×65535/32768.
        let scale = 65535.0 / 32768
        expectXYZ(lookup.connectionSpaceXYZ([0.5, 1, 0.2]), (0.225 * scale, 0.25 * scale, 0.04 * scale), within: 1e-4)
    }

    @Test("mft1 reads 8-bit tables and the 8-bit Lab encoding")
    func lut8() throws {
        let bytes = LookupBytes.profile(space: "RGB ", pcs: "Lab ", a2b0: LookupBytes.mft1(channels: 3, points: 2) { device in
            (device[0], 0.5, 0.5)  // L* from red only; a* and b* near 0
        })
        let lookup = try pipeline(bytes)
        expectXYZ(lookup.connectionSpaceXYZ([1, 0, 1]), (0.9642, 1, 0.8249), within: 0.02)
        expectXYZ(lookup.connectionSpaceXYZ([0, 1, 0]), (0, 0, 0), within: 0.01)
    }

    @Test("An RGB profile with colorants as well keeps using them")
    func matrixFirst() throws {
        let bytes = ProfileBytes.profile(space: "RGB ", tags: [
            ("rXYZ", ProfileBytes.xyz(0.436066, 0.222488, 0.013916)), ("gXYZ", ProfileBytes.xyz(0.385147, 0.716873, 0.097076)),
            ("bXYZ", ProfileBytes.xyz(0.143066, 0.060608, 0.714096)), ("rTRC", ProfileBytes.gamma(2.2)),
            ("gTRC", ProfileBytes.gamma(2.2)), ("bTRC", ProfileBytes.gamma(2.2)),
            ("A2B0", LookupBytes.mft2(channels: 3, points: 2) { _ in (0, 0, 0) }),
        ])
        guard case .rgb = try #require(ICCProfile(bytes: bytes)).colorSpace else {
            Issue.record("expected the matrix profile")
            return
        }
    }

    @Test(
        "Lookup elements it cannot read make the profile unusable",
        arguments: [
            ("four outputs", LookupBytes.profile(space: "CMYK", pcs: "Lab ", a2b0: LookupBytes.mft2(channels: 4, points: 2, outputs: 4) { _ in (0, 0, 0) })),
            ("one grid point", LookupBytes.profile(space: "CMYK", pcs: "Lab ", a2b0: LookupBytes.mft2(channels: 4, points: 1) { _ in (0, 0, 0) })),
            ("channels not the space's", LookupBytes.profile(space: "CMYK", pcs: "Lab ", a2b0: LookupBytes.mft2(channels: 3, points: 2) { _ in (0, 0, 0) })),
            ("table cut short", LookupBytes.profile(space: "CMYK", pcs: "Lab ", a2b0: Array(LookupBytes.mft2(channels: 4, points: 3) { _ in (0, 0, 0) }.dropLast(40)))),
            ("8-bit XYZ", LookupBytes.profile(space: "RGB ", pcs: "XYZ ", a2b0: LookupBytes.mft1(channels: 3, points: 2) { _ in (0, 0, 0) })),
            ("unknown element", LookupBytes.profile(space: "CMYK", pcs: "Lab ", a2b0: Array("mBA ".utf8) + [UInt8](repeating: 0, count: 60))),
            ("mAB without B curves", LookupBytes.profile(space: "RGB ", pcs: "XYZ ", a2b0: Array("mAB ".utf8) + [0, 0, 0, 0, 3, 3, 0, 0] + [UInt8](repeating: 0, count: 40))),
            ("a curve claiming 4 billion entries", LookupBytes.profile(space: "RGB ", pcs: "XYZ ", a2b0: LookupBytes.mAB(
                aCurve: Array("curv".utf8) + [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF], matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1], offset: [0, 0, 0]))),
            ("Lab device space", LookupBytes.profile(space: "Lab ", pcs: "Lab ", a2b0: LookupBytes.mft2(channels: 3, points: 2) { _ in (0, 0, 0) })),
        ])
    func unusable(_ name: String, _ bytes: [UInt8]) {
        #expect(ICCProfile(bytes: bytes) == nil, "\(name)")
    }
}

// MARK: - Converting

@Suite("Lookup-table profiles convert pixels to sRGB")
struct LookupConversionTests {
    /// A CMYK profile whose inks darken multiplicatively (L* only), 9 nodes per ink.
    private static let cmyk = LookupBytes.profile(space: "CMYK", pcs: "Lab ", a2b0: LookupBytes.mft2(channels: 4, points: 9) { d in
        LookupBytes.lab16(100 * (1 - 0.3 * d[0]) * (1 - 0.4 * d[1]) * (1 - 0.2 * d[2]) * (1 - 0.9 * d[3]), 0, 0)
    })

    /// sRGB encoding of the D50 XYZ `connectionSpaceXYZ` gives, for a neutral (X/Xn = Y = Z/Zn).
    private func neutralSRGB(_ y: Double) -> Int {
        let encoded = y <= 0.0031308 ? 12.92 * y : 1.055 * pow(y, 1 / 2.4) - 0.055
        return Int((encoded * 255).rounded())
    }

    @Test("CMYK ink amounts become opaque RGB: paper is white, full black is the profile's black")
    func cmykPixels() throws {
        let conversion = try #require(ICCProfile(bytes: Self.cmyk).flatMap(SRGBConversion.init(from:)))
        let inks = try Image(width: 2, height: 1, pixels: [0, 0, 0, 0, 0, 0, 0, 255])
        let converted = conversion.apply(to: inks)
        #expect(converted.pixel(x: 0, y: 0) == RGBA(r: 255, g: 255, b: 255, a: 255))
        let black = converted.pixel(x: 1, y: 0)
        // L* 10 is Y = 0.01126: sRGB 28.
        #expect(abs(Int(black.r) - 28) <= 1 && black.r == black.g && black.g == black.b && black.a == 255)
    }

    @Test("The sampled grid stays within one level of evaluating the profile directly")
    func gridMatchesDirectEvaluation() throws {
        let profile = try #require(ICCProfile(bytes: Self.cmyk))
        guard case .lookup(let pipeline) = profile.colorSpace else { return }
        let conversion = try #require(SRGBConversion(from: profile))
        var generator = SystemRandomNumberGenerator()
        var pixels = [UInt8]()
        for _ in 0..<500 { pixels += (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let converted = conversion.apply(to: try Image(width: 500, height: 1, pixels: pixels))
        for index in 0..<500 {
            let device = (0..<4).map { Double(pixels[index * 4 + $0]) / 255 }
            let expected = neutralSRGB(pipeline.connectionSpaceXYZ(device).y)
            let actual = converted.pixel(x: index, y: 0)
            #expect(abs(Int(actual.g) - expected) <= 1, "\(device): \(actual.g) vs \(expected)")
        }
    }

    @Test("A CMYK profile is not applied to RGB pixels")
    func cmykProfileOnRGB() throws {
        let image = try Image(width: 1, height: 1, pixels: [200, 100, 50, 255])
        #expect(DecodeOptions().convertToSRGB(image, iccProfile: Self.cmyk) == image)
    }

    @Test("A grey lookup profile maps each level through its tables, tint included")
    func grey() throws {
        let bytes = LookupBytes.profile(space: "GRAY", pcs: "Lab ", a2b0: LookupBytes.mft2(channels: 1, points: 17) { d in
            LookupBytes.lab16(100 * d[0], 0, 30 * d[0] * (1 - d[0]))  // yellowish mid-tones
        })
        let conversion = try #require(ICCProfile(bytes: bytes).flatMap(SRGBConversion.init(from:)))
        let pixel = conversion.apply(to: try Image(width: 1, height: 1, pixels: [128, 128, 128, 255])).pixel(x: 0, y: 0)
        #expect(pixel.r > pixel.b + 10 && pixel.a == 255)
        let white = conversion.apply(to: try Image(width: 1, height: 1, pixels: [255, 255, 255, 255])).pixel(x: 0, y: 0)
        #expect(white == RGBA(r: 255, g: 255, b: 255, a: 255))
    }
}

// MARK: - Damaged profiles

@Suite("Damaged lookup-table profiles are refused or evaluated, never a crash")
struct DamagedLookupProfileTests {
    @Test("3,000 seeded mutations of mft1, mft2 and mAB profiles parse to a profile or nil, and evaluate to finite values")
    func mutations() {
        let seeds: [[UInt8]] = [
            LookupBytes.profile(space: "CMYK", pcs: "Lab ", a2b0: LookupBytes.mft2(channels: 4, points: 3) { d in (d[0], d[1], d[3]) }),
            LookupBytes.profile(space: "RGB ", pcs: "Lab ", a2b0: LookupBytes.mft1(channels: 3, points: 3) { d in (d[0], d[1], d[2]) }),
            LookupBytes.profile(space: "RGB ", pcs: "XYZ ", a2b0: LookupBytes.mAB(
                aCurve: ProfileBytes.para(0, [2]), matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1], offset: [0, 0, 0])),
        ]
        var random = SeededGenerator(seed: 14)
        var parsed = 0
        for iteration in 0..<3000 {
            var bytes = seeds[iteration % seeds.count]
            // The A2B0 element starts after the header (128), the tag count and one entry (12).
            let element = 144
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Bool.random(using: &random)
                    ? element + Int.random(in: 0..<min(64, bytes.count - element), using: &random)
                    : Int.random(in: 0..<bytes.count, using: &random)
                bytes[at] = Bool.random(using: &random) ? UInt8.random(in: 0...255, using: &random) : [0, 1, 2, 0xFF][iteration % 4]
            }
            if Bool.random(using: &random) { bytes.removeLast(Int.random(in: 0..<bytes.count / 2, using: &random)) }
            guard let profile = ICCProfile(bytes: bytes) else { continue }
            parsed += 1
            guard case .lookup(let pipeline) = profile.colorSpace else { continue }
            for _ in 0..<4 {
                let device = (0..<pipeline.inputChannels).map { _ in Double.random(in: -0.5...1.5, using: &random) }
                let xyz = pipeline.connectionSpaceXYZ(device)
                let finite = xyz.x.isFinite && xyz.y.isFinite && xyz.z.isFinite
                #expect(finite, "iteration \(iteration): \(xyz)")
            }
            // Now and then the whole conversion, grid and all, on a few pixels.
            if parsed % 100 == 0, let conversion = SRGBConversion(from: profile) {
                let pixels = (0..<64).map { _ in UInt8.random(in: 0...255, using: &random) }
                let image = try? Image(width: 16, height: 1, pixels: pixels)
                #expect(image.map { conversion.apply(to: $0).pixels.count } == 64)
            }
        }
        #expect(parsed > 100)  // the mutations leave many profiles readable, so evaluation was exercised
    }
}
