// MARK: - ISO-BMFF tracks: sample tables (AVIF image sequences)

extension ISOBMFFHeaderParser {
    /// The sample-table boxes whose entries libavif reads into arrays it sizes from the entry
    /// count, with the bytes of one entry.
    private static let sampleTableEntrySizes: [String: Int] = ["stts": 8, "stsc": 12, "stco": 4, "co64": 8, "stss": 4, "ctts": 8]

    /// Refuses a track (`moov/trak/…/stbl`) whose sample tables claim more than the file
    /// holds, before libavif reads an image sequence from it: an entry count larger than its
    /// box, or a sample larger than the file. libavif sizes its arrays from those counts and
    /// libgd's reader allocates what a sample's size claims, and both abort the process when
    /// the allocation fails.
    static func checkSampleTables(in r: ByteReader, format: ImageFormat) throws {
        guard let moov = findBox("moov", in: r, from: 0, to: r.count) else { return }
        var trakAt = moov.start
        while let trak = nextBox(in: r, at: trakAt, limit: moov.end) {
            trakAt = trak.end
            guard trak.type == "trak",
                let mdia = findBox("mdia", in: r, from: trak.start, to: trak.end),
                let minf = findBox("minf", in: r, from: mdia.start, to: mdia.end),
                let stbl = findBox("stbl", in: r, from: minf.start, to: minf.end)
            else { continue }
            var at = stbl.start
            while let table = nextBox(in: r, at: at, limit: stbl.end) {
                at = table.end
                try checkSampleTable(table, in: r, format: format)
            }
        }
    }

    /// The number of frames of an image sequence (AVIF's `avis`, HEIF's `msf1`): the sample
    /// count (`stsz` or `stz2`) of the first track whose handler is `pict` or `vide`, so an
    /// alpha plane's `auxv` track is not counted twice. `nil` when the file has no such track.
    static func sequenceFrameCount(in r: ByteReader) -> Int? {
        guard let moov = findBox("moov", in: r, from: 0, to: r.count) else { return nil }
        var trakAt = moov.start
        while let trak = nextBox(in: r, at: trakAt, limit: moov.end) {
            trakAt = trak.end
            guard trak.type == "trak",
                let mdia = findBox("mdia", in: r, from: trak.start, to: trak.end),
                let hdlr = findBox("hdlr", in: r, from: mdia.start, to: mdia.end),
                let handler = r.fourCC(hdlr.start + 8), handler == "pict" || handler == "vide",
                let minf = findBox("minf", in: r, from: mdia.start, to: mdia.end),
                let stbl = findBox("stbl", in: r, from: minf.start, to: minf.end)
            else { continue }
            // Both carry version and flags, a field, then the sample count at byte 8.
            let sizes = findBox("stsz", in: r, from: stbl.start, to: stbl.end) ?? findBox("stz2", in: r, from: stbl.start, to: stbl.end)
            guard let sizes, sizes.end - sizes.start >= 12 else { return nil }
            return r.u32be(sizes.start + 8)
        }
        return nil
    }

    private static func checkSampleTable(_ table: Box, in r: ByteReader, format: ImageFormat) throws {
        let room = table.end - table.start
        func refuse(_ what: String) -> DarkroomError {
            .corrupt(format, detail: "the sample table '\(table.type)' \(what)")
        }
        if table.type == "stsz" {
            // Version and flags, a size for every sample (0: sizes follow), the sample count.
            guard room >= 12, let size = r.u32be(table.start + 4), let count = r.u32be(table.start + 8) else {
                throw refuse("is cut short")
            }
            guard size <= r.count else { throw refuse("claims samples of \(size) bytes in a file of \(r.count)") }
            guard size == 0 else { return }
            guard count <= (room - 12) / 4 else { throw refuse("lists \(count) samples but holds \((room - 12) / 4)") }
            for index in 0..<count {
                guard let sample = r.u32be(table.start + 12 + 4 * index), sample <= r.count else {
                    throw refuse("claims a sample larger than the file (\(r.count) bytes)")
                }
            }
        } else if let entryBytes = sampleTableEntrySizes[table.type] {
            guard room >= 8, let count = r.u32be(table.start + 4) else { throw refuse("is cut short") }
            guard count <= (room - 8) / entryBytes else {
                throw refuse("lists \(count) entries but holds \((room - 8) / entryBytes)")
            }
        }
    }
}
