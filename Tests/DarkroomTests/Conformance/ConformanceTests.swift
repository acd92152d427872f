import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Conformance against ImageMagick

/// The conformance corpus (``ConformanceCase/all``): each file written by ImageMagick from a
/// test picture, read back by ImageMagick (`-auto-orient`, 8-bit RGBA) as the reference, and by
/// `Registry.standard` (upright, profiles to sRGB). A case known to agree that stops agreeing
/// fails; the table of outcomes by format is printed (and recorded in `Docs/Formats.md`).
@Suite("Odd but legal files of every format decode as ImageMagick decodes them")
struct ConformanceTests {
    static let imageMagick = "/usr/bin/convert"

    @Test(
        "every case known to agree agrees; the share by format is printed",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: imageMagick),
            "skipped: ImageMagick's /usr/bin/convert is not installed (CI installs imagemagick)"))
    func corpus() async throws {
        let folder = try TemporaryDirectory(prefix: "darkroom-conformance")
        let opaque = folder.path("source.png"), translucent = folder.path("source-alpha.png")
        try Data(try Registry.standard.encode(Self.picture(translucent: false), options: EncodeOptions(format: .png)))
            .write(to: URL(fileURLWithPath: opaque))
        try Data(try Registry.standard.encode(Self.picture(translucent: true), options: EncodeOptions(format: .png)))
            .write(to: URL(fileURLWithPath: translucent))
        var results: [(ConformanceCase, ConformanceCase.Outcome?, String)] = []
        for testCase in ConformanceCase.all {
            let (outcome, detail) = try await Self.run(testCase, source: testCase.translucent ? translucent : opaque, in: folder)
            results.append((testCase, outcome, detail))
            if testCase.expected == .agrees, let outcome {
                #expect(outcome == .agrees, "\(testCase.name): \(detail)")
            }
            // A known failure must still be explained; one that now agrees is news, not a failure.
            #expect(testCase.expected == .agrees || !testCase.why.isEmpty, "\(testCase.name) needs a why")
        }
        print(Self.table(results))
    }

    // MARK: - One case

    /// Writes the case's file, decodes it both ways and compares; `nil` when ImageMagick cannot
    /// write or read it (nothing to compare against).
    static func run(
        _ testCase: ConformanceCase, source: String, in folder: TemporaryDirectory
    ) async throws -> (ConformanceCase.Outcome?, String) {
        let file = folder.path("\(testCase.name).\(testCase.fileExtension)")
        let written = try await ChildProcess.run(imageMagick, [source] + testCase.options + [testCase.coder + file])
        guard written.status == 0, FileManager.default.fileExists(atPath: file) else {
            return (nil, "ImageMagick cannot write it: \(written.output.prefix(120))")
        }
        let referencePath = folder.path("\(testCase.name).pam")
        let read = try await ChildProcess.run(
            imageMagick, [file + "[0]", "-auto-orient", "-colorspace", "sRGB", "-alpha", "set", "-depth", "8", referencePath])
        guard read.status == 0, let reference = try? PAMImage.read(FileBytes.read(referencePath)) else {
            return (nil, "ImageMagick cannot read it back: \(read.output.prefix(120))")
        }
        let ours: Image
        do {
            ours = try Registry.standard.decode(try FileBytes.read(file))
        } catch {
            return (.refused, "\(error)")
        }
        guard ours.size == reference.size else {
            return (.differs, "\(ours.size) against ImageMagick's \(reference.size)")
        }
        let psnr = ImageComparison.psnr(onGrey(ours), onGrey(reference))
        let text = psnr.isInfinite ? "identical" : String(format: "%.1f dB", psnr)
        return (psnr >= 30 ? .agrees : .differs, text)
    }

    // MARK: - Pictures

    /// A 96×64 photo-like picture; translucent: alpha falling from 255 on the left to 0 on the right.
    static func picture(translucent: Bool) -> Image {
        let photo = Pattern.photo(width: 96, height: 64)
        guard translucent else { return photo }
        var pixels = photo.pixels
        for y in 0..<photo.height {
            for x in 0..<photo.width { pixels[(y * photo.width + x) * 4 + 3] = UInt8(255 - x * 255 / (photo.width - 1)) }
        }
        return try! Image(width: photo.width, height: photo.height, pixels: pixels, hasAlpha: true)
    }

    /// `image` composited over mid-grey: what a viewer shows, whatever a decoder leaves in the
    /// colour of a transparent pixel.
    static func onGrey(_ image: Image) -> Image {
        var pixels = image.pixels
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Int(pixels[i + 3])
            for c in 0..<3 { pixels[i + c] = UInt8((Int(pixels[i + c]) * a + 128 * (255 - a) + 127) / 255) }
            pixels[i + 3] = 255
        }
        return try! Image(width: image.width, height: image.height, pixels: pixels, hasAlpha: false)
    }

    // MARK: - The table

    /// Outcomes by format family: agreeing, differing, refused, and the cases not agreeing.
    static func table(_ results: [(ConformanceCase, ConformanceCase.Outcome?, String)]) -> String {
        var out = "| format | cases | agree | differ | refused | not agreeing |\n| --- | --- | --- | --- | --- | --- |\n"
        let families = results.map(\.0.family).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for family in families + ["all"] {
            let rows = results.filter { family == "all" || $0.0.family == family }.filter { $0.1 != nil }
            let count = { (outcome: ConformanceCase.Outcome) in rows.filter { $0.1 == outcome }.count }
            let others = rows.filter { $0.1 != .agrees }.map { "\($0.0.name) (\($0.2.prefix(80)))" }
            out += "| \(family) | \(rows.count) | \(count(.agrees)) | \(count(.differs)) | \(count(.refused)) | "
                + "\(family == "all" ? "" : others.joined(separator: "; ")) |\n"
        }
        let skipped = results.filter { $0.1 == nil }.map { "\($0.0.name) (\($0.2.prefix(60)))" }
        if !skipped.isEmpty { out += "\nNot compared (no reference): \(skipped.joined(separator: "; "))\n" }
        return out
    }
}

// MARK: - PAMImage

/// Reads ImageMagick's 8-bit RGB_ALPHA PAM output.
enum PAMImage {
    static func read(_ bytes: [UInt8]) throws -> Image {
        guard let end = ConformanceTests.range(of: Array("ENDHDR\n".utf8), in: bytes) else { throw DarkroomError.corrupt(.png, detail: "no PAM header") }
        let header = String(decoding: bytes[..<end], as: UTF8.self)
        var fields: [String: String] = [:]
        for line in header.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let width = fields["WIDTH"].flatMap(Int.init), let height = fields["HEIGHT"].flatMap(Int.init),
            fields["DEPTH"] == "4", fields["MAXVAL"] == "255"
        else { throw DarkroomError.corrupt(.png, detail: "not an 8-bit RGBA PAM: \(header)") }
        let pixels = Array(bytes[(end + 7)...])
        return try Image(width: width, height: height, pixels: Array(pixels.prefix(width * height * 4)), hasAlpha: true)
    }
}

extension ConformanceTests {
    static func range(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
