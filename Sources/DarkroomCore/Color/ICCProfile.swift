// MARK: - ICCProfile

/// The parts of an ICC colour profile Darkroom can apply: an RGB **matrix/TRC** profile
/// (`rXYZ`/`gXYZ`/`bXYZ` colorants + `rTRC`/`gTRC`/`bTRC` curves — sRGB, Adobe RGB, Display P3,
/// ProPhoto, Rec. 2020 and nearly every camera and phone profile), a **grey** profile (`kTRC`),
/// or a **lookup-table** profile's `A2B0` transform (every CMYK profile, and RGB or grey
/// profiles without colorants or a `kTRC`; see ``ICCLookupPipeline``).
///
/// Lab, multi-ink and device-link profiles, and damaged profiles give `nil`: the pixels are then
/// used as they are, as browsers do with a profile they cannot read.
///
/// ```swift
/// if let profile = ICCProfile(bytes: embedded) {
///     print(profile.description ?? "unnamed", profile.colorSpace)
/// }
/// ```
public struct ICCProfile: Sendable, Equatable {
    /// What the profile's device values are.
    public enum ColorSpace: Sendable, Equatable {
        /// Three channels through a 3×3 matrix to the D50 connection space.
        case rgb(red: XYZ, green: XYZ, blue: XYZ, curves: [ToneCurve])
        /// One grey channel; neutral in any RGB space.
        case gray(ToneCurve)
        /// Device values (grey, RGB or CMYK) through the `A2B0` lookup tables (perceptual).
        case lookup(ICCLookupPipeline)
    }

    /// A CIE XYZ triple (D50-adapted, as ICC colorants are).
    public struct XYZ: Sendable, Equatable {
        /// The X, Y and Z components, relative to a white of Y = 1.
        public var x: Double, y: Double, z: Double
        /// Builds the triple from its X, Y and Z components.
        public init(_ x: Double, _ y: Double, _ z: Double) { (self.x, self.y, self.z) = (x, y, z) }
    }

    /// What the profile's device values are, and how they map to the D50 connection space.
    public let colorSpace: ColorSpace
    /// The profile's `desc` text (`Adobe RGB (1998)`, `Display P3`), when it has one.
    public let description: String?

    /// Builds a profile from its colour space and an optional `desc` text (`nil` by default).
    public init(colorSpace: ColorSpace, description: String? = nil) {
        self.colorSpace = colorSpace
        self.description = description
    }

    /// How many channels the profile's device values have: 1, 3 or 4 (CMYK).
    public var channelCount: Int {
        switch colorSpace {
        case .rgb: 3
        case .gray: 1
        case .lookup(let pipeline): pipeline.inputChannels
        }
    }

    // MARK: - Parsing

    /// Parses an embedded profile; `nil` when it is not one Darkroom can apply (see above).
    public init?(bytes: [UInt8]) {
        guard let parsed = bytes.withUnsafeBytes({ Self.parse(ByteReader($0)) }) else { return nil }
        self = parsed
    }

    private static func parse(_ r: ByteReader) -> ICCProfile? {
        guard let space = r.fourCC(16), let connection = r.fourCC(20), connection == "XYZ " || connection == "Lab ",
            let tags = tagTable(r)
        else { return nil }
        func curve(_ name: String) -> ToneCurve? {
            tags[name].flatMap { ToneCurve.parse(r, at: $0.offset, size: $0.size) }
        }
        func colorant(_ name: String) -> XYZ? {
            guard let tag = tags[name], tag.size >= 20, r.fourCC(tag.offset) == "XYZ ",
                let x = ToneCurve.s15Fixed16(r, at: tag.offset + 8),
                let y = ToneCurve.s15Fixed16(r, at: tag.offset + 12),
                let z = ToneCurve.s15Fixed16(r, at: tag.offset + 16)
            else { return nil }
            return XYZ(x, y, z)
        }
        let description = tags["desc"].flatMap { text(r, at: $0.offset, size: $0.size) }
        func lookup(channels: Int) -> ICCProfile? {
            guard let tag = tags["A2B0"], let pipeline = ICCLookupPipeline.parse(
                r, at: tag.offset, size: tag.size, channels: channels, lab: connection == "Lab ")
            else { return nil }
            return ICCProfile(colorSpace: .lookup(pipeline), description: description)
        }
        // The matrix and curves when a profile has both (they are exact, and what browsers
        // use); the lookup tables otherwise.
        switch space {
        case "RGB ":
            guard connection == "XYZ ", let red = colorant("rXYZ"), let green = colorant("gXYZ"),
                let blue = colorant("bXYZ"), let rc = curve("rTRC"), let gc = curve("gTRC"), let bc = curve("bTRC")
            else { return lookup(channels: 3) }
            return ICCProfile(colorSpace: .rgb(red: red, green: green, blue: blue, curves: [rc, gc, bc]),
                description: description)
        case "GRAY":
            // With a Lab connection space a grey curve gives L*, not Y: only its tables are read.
            guard connection == "XYZ ", let grey = curve("kTRC") else { return lookup(channels: 1) }
            return ICCProfile(colorSpace: .gray(grey), description: description)
        case "CMYK":
            return lookup(channels: 4)
        default:
            return nil
        }
    }

    /// The tag table of a profile with a valid header: each tag's signature with where its
    /// element lies (inside the profile); `nil` when the header or an entry is damaged.
    static func tagTable(_ r: ByteReader) -> [String: (offset: Int, size: Int)]? {
        guard r.count >= 132, r.starts(with: "acsp", at: 36), let tagCount = r.u32be(128), tagCount <= (r.count - 132) / 12
        else { return nil }
        var tags = [String: (offset: Int, size: Int)]()
        for index in 0..<tagCount {
            let entry = 132 + 12 * index
            guard let signature = r.fourCC(entry), let offset = r.u32be(entry + 4), let size = r.u32be(entry + 8),
                offset <= r.count, size <= r.count - offset
            else { return nil }
            tags[signature] = (offset, size)
        }
        return tags
    }

    /// A `desc` (ICC v2 `textDescriptionType`) or `mluc` (v4, first record) text element.
    static func text(_ r: ByteReader, at offset: Int, size: Int) -> String? {
        switch r.fourCC(offset) {
        case "desc":
            guard let count = r.u32be(offset + 8), count > 0, count <= size - 12,
                let ascii = r.slice(offset + 12, count)
            else { return nil }
            return String(decoding: ascii.prefix { $0 != 0 }, as: UTF8.self)
        case "mluc":
            guard let records = r.u32be(offset + 8), records > 0, let length = r.u32be(offset + 20),
                let start = r.u32be(offset + 24), start <= size, length <= size - start, length % 2 == 0
            else { return nil }
            var units = [UInt16]()
            for index in stride(from: 0, to: length, by: 2) {
                guard let unit = r.u16be(offset + start + index) else { return nil }
                units.append(UInt16(unit))
            }
            return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
        default:
            return nil
        }
    }
}
