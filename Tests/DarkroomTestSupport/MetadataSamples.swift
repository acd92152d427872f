import DarkroomCore
import Foundation

// MARK: - MetadataSamples

/// Metadata to embed and look for in tests: an EXIF block built here (IFD0 with Make, an
/// orientation and Software, in either byte order), an XMP packet, and real ICC profiles taken
/// from the fixtures.
public enum MetadataSamples {
    /// The camera make the sample EXIF records.
    public static let make = "Darkroom Camera"
    /// The creator the sample XMP packet names.
    public static let creator = "Ansel Adams"

    /// A TIFF structure with IFD0 = Make (ASCII), Orientation (SHORT, when given) and
    /// Software (ASCII), values past the entries, in big-endian (`MM`) or little-endian (`II`).
    public static func exif(orientation: Int? = 6, bigEndian: Bool = true) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let make = Array(make.utf8) + [0], software = Array("darkroom tests".utf8) + [0]
        let entryCount = orientation == nil ? 2 : 3
        let valuesAt = 8 + 2 + entryCount * 12 + 4
        var out: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8)
        out += u16(entryCount)
        out += u16(0x010F) + u16(2) + u32(make.count) + u32(valuesAt)
        if let orientation { out += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) }
        out += u16(0x0131) + u16(2) + u32(software.count) + u32(valuesAt + make.count)
        out += u32(0)  // no IFD1
        return out + make + software
    }

    /// An XMP packet naming ``creator``.
    public static let xmp: [UInt8] = Array(
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">\
        <dc:creator><rdf:Seq><rdf:li>\(creator)</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """.utf8)

    /// The Adobe RGB (1998) profile of `icc-adobe-rgb.jpg`.
    public static var adobeRGB: [UInt8] { EmbeddedICCProfile.bytes(in: Fixtures.bytes("icc-adobe-rgb.jpg"), format: .jpeg)! }

    /// The CMYK profile of `lut-cmyk-plain.jpg`.
    public static var cmyk: [UInt8] { EmbeddedICCProfile.bytes(in: Fixtures.bytes("lut-cmyk-plain.jpg"), format: .jpeg)! }

    /// All three parts: the sample EXIF (orientation 6), the XMP packet and Adobe RGB.
    public static var all: ImageMetadata { ImageMetadata(exif: exif(), xmp: xmp, iccProfile: adobeRGB) }

    /// `exiftool` when installed (CI installs it): an independent reader of every container.
    public static let exiftool: String? = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// What exiftool reads from a file carrying ``all``: the tags that show each part arrived.
    public static let expectedTags: [String: String] = [
        "Make": make, "Orientation": "6", "Creator": creator, "ProfileDescription": "Adobe RGB (1998) primaries",
    ]

    /// Writes `bytes` to a temporary `.ext` file and returns exiftool's values of the tags in
    /// ``expectedTags`` (missing ones absent).
    public static func sampleTags(in bytes: [UInt8], ext: String) async throws -> [String: String] {
        let folder = try TemporaryDirectory()
        let path = folder.path("tagged.\(ext)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try await exiftoolTags(path).filter { expectedTags[$0.key] != nil }
    }

    /// Runs exiftool on `path` and returns its `-s`-style output as tag → value (the first
    /// occurrence of each tag). Numeric values with `-n`.
    public static func exiftoolTags(_ path: String, numeric: Bool = true) async throws -> [String: String] {
        guard let exiftool else { return [:] }
        let (_, printed) = try await ChildProcess.run(exiftool, ["-s"] + (numeric ? ["-n"] : []) + [path])
        var tags: [String: String] = [:]
        for line in printed.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if tags[key] == nil { tags[key] = value }
        }
        return tags
    }
}
