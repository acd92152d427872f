import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - ISO-BMFF item data and sample tables against the file

@Suite("AVIF/HEIF item data and sample tables that claim more than the file holds are refused by the probe")
struct ISOBMFFExtentTests {
    /// A box: 32-bit size, type, payload.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be(8 + payload.count, 4) + Array(type.utf8) + payload
    }

    static func be(_ value: Int, _ bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// `gradient.avif` with its `iloc` box replaced by `iloc` (the `meta` size adjusted; the
    /// item data offsets are rewritten by the caller).
    static func gradientAVIF(replacingILOCWith iloc: [UInt8]) -> [UInt8] {
        var bytes = Fixtures.bytes("gradient.avif")
        // gradient.avif: meta at 28, iloc at 87 (34 bytes).
        bytes.replaceSubrange(87..<121, with: iloc)
        let metaSize = Int(bytes[28]) << 24 | Int(bytes[29]) << 16 | Int(bytes[30]) << 8 | Int(bytes[31])
        bytes.replaceSubrange(28..<32, with: be(metaSize + iloc.count - 34, 4))
        return bytes
    }

    @Test("an extent claiming 16 TiB or 4 GiB is truncation (libavif aborted the process allocating it)",
          arguments: ["iloc-extent-16tib.avif", "iloc-extent-4gib.avif"])
    func hugeExtent(name: String) {
        #expect { try ImageProbe.probe(Fixtures.bytes(name)) } throws: { error in
            guard case let DarkroomError.truncated(.avif, detail) = error else { return false }
            return detail.contains("item 1's data") && detail.contains("runs past the end of the file")
        }
    }

    @Test("every AVIF and HEIF fixture still probes", arguments: [
        "gradient.avif", "gradient.heic", "icc-adobe-rgb.avif", "nclx-display-p3.avif", "orientation-6.avif",
    ])
    func validFilesPass(name: String) throws {
        _ = try ImageProbe.probe(Fixtures.bytes(name))
    }

    @Test("extents that each fit but add up to more than the file are corrupt")
    func extentsAddUpPastTheFile() {
        // Version 0, offset/length/base sizes 4/4/0, one item with two extents of the whole mdat.
        let length = 163
        let extents = Self.be(274, 4) + Self.be(length, 4)
        var payload: [UInt8] = [0, 0, 0, 0, 0x44, 0x00] + Self.be(1, 2) + Self.be(1, 2) + Self.be(0, 2)
        payload += Self.be(400, 2) + Array(repeating: extents, count: 400).flatMap { $0 }
        let bytes = Self.gradientAVIF(replacingILOCWith: Self.box("iloc", payload))
        #expect { try ImageProbe.probe(bytes) } throws: { error in
            guard case let DarkroomError.corrupt(.avif, detail) = error else { return false }
            return detail.contains("add up to more bytes than the file holds")
        }
    }

    @Test("an item stored in an 'idat' box the file does not have is corrupt")
    func missingIDAT() {
        // Version 1: construction method 1 (idat).
        let payload: [UInt8] = [1, 0, 0, 0, 0x44, 0x00] + Self.be(1, 2) + Self.be(1, 2) + Self.be(1, 2) + Self.be(0, 2)
            + Self.be(1, 2) + Self.be(0, 4) + Self.be(10, 4)
        let bytes = Self.gradientAVIF(replacingILOCWith: Self.box("iloc", payload))
        #expect { try ImageProbe.probe(bytes) } throws: { error in
            guard case let DarkroomError.corrupt(.avif, detail) = error else { return false }
            return detail.contains("'idat' box the file does not have")
        }
    }

    @Test("an 'iloc' cut short or with a field size of 3 bytes is corrupt")
    func malformedILOC() {
        let cut = Self.box("iloc", [0, 0, 0, 0, 0x44, 0x00] + Self.be(5, 2) + Self.be(1, 2))
        let oddSize = Self.box("iloc", [0, 0, 0, 0, 0x34, 0x00] + Self.be(0, 2))
        for iloc in [cut, oddSize] {
            #expect { try ImageProbe.probe(Self.gradientAVIF(replacingILOCWith: iloc)) } throws: { error in
                guard case let DarkroomError.corrupt(.avif, detail) = error else { return false }
                return detail.contains("'iloc'")
            }
        }
    }

    @Test("a sequence's sample table listing more entries than its box, or a sample larger than the file, is corrupt")
    func sampleTables() {
        let base = Fixtures.bytes("gradient.avif")
        let stco = Self.box("stco", [0, 0, 0, 0] + Self.be(0x0FFF_FFFF, 4))
        let stsz = Self.box("stsz", [0, 0, 0, 0] + Self.be(0, 4) + Self.be(1, 4) + Self.be(0x7FFF_FFFF, 4))
        for (table, message) in [(stco, "lists 268435455 entries but holds 0"), (stsz, "claims a sample larger than the file")] {
            let stbl = Self.box("stbl", table)
            let moov = Self.box("moov", Self.box("trak", Self.box("mdia", Self.box("minf", stbl))))
            #expect { try ImageProbe.probe(base + moov) } throws: { error in
                guard case let DarkroomError.corrupt(.avif, detail) = error else { return false }
                return detail.contains(message)
            }
        }
    }
}

// MARK: - Found by the mutation sweep

@Suite("HEIF configurations the mutation sweep found crashing the probe")
struct HEVCConfigurationSweepTests {
    @Test("an hvcC SPS NAL of 0 or 1 bytes (shorter than its header) is passed over, never a trap",
          arguments: ["hvcc-sps-length-0.heic", "hvcc-sps-length-1.heic"])
    func shortSPS(name: String) throws {
        let header = try ImageProbe.probe(Fixtures.bytes(name))
        #expect(header.format == .heif && header.size == PixelSize(width: 64, height: 48))
    }
}

@Suite("A top-level AVIF box that claims more than the file holds is refused before libavif reads it")
struct TopLevelBoxSweepTests {
    @Test("a 492-byte AVIF whose 'meta' claims 2 GiB is truncated (libavif aborted allocating it)")
    func hugeMeta() {
        #expect { try ImageProbe.probe(Fixtures.bytes("meta-size-2gib.avif")) } throws: { error in
            guard case let DarkroomError.truncated(.avif, detail) = error else { return false }
            return detail.contains("the 'meta' box claims 2147483647 bytes")
        }
    }
}
