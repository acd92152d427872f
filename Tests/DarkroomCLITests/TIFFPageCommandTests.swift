import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - TIFF pages through the binary

@Suite("darkroom probes a TIFF's pages and converts any of them with --page")
struct TIFFPageCommandTests {
    /// Two grey pages: 6×4 level 40, then 3×5 level 220.
    private static func twoPages(in folder: TemporaryDirectory) throws -> String {
        let file = TIFFWriter(pages: [
            TIFFWriter.Page(width: 6, height: 4, photometric: 1, samples: Array(repeating: 40, count: 24)),
            TIFFWriter.Page(width: 3, height: 5, photometric: 1, samples: Array(repeating: 220, count: 15)),
        ]).bytes()
        let path = folder.path("scan.tiff")
        try Data(file).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("probe counts the pages as frames")
    func probe() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["probe", try Self.twoPages(in: folder)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"frames\":2"), "\(outcome.stdout)")
    }

    @Test("convert writes page 0 by default and the page --page names")
    func convertPages() async throws {
        let folder = try TemporaryDirectory()
        let input = try Self.twoPages(in: folder)
        let first = try await CommandRunner.run(["convert", input, "-o", folder.path("first.png")])
        #expect(first.status == 0, "\(first.stderr)")
        let firstImage = try Registry.standard.decode(FileBytes.read(folder.path("first.png")))
        #expect(firstImage.size == PixelSize(width: 6, height: 4) && firstImage.pixel(x: 0, y: 0).r == 40)
        let second = try await CommandRunner.run(["convert", input, "-o", folder.path("second.png"), "--page", "1"])
        #expect(second.status == 0, "\(second.stderr)")
        let secondImage = try Registry.standard.decode(FileBytes.read(folder.path("second.png")))
        #expect(secondImage.size == PixelSize(width: 3, height: 5) && secondImage.pixel(x: 2, y: 4).r == 220)
    }

    @Test("a page past the last, a negative page, and a page of a one-page format are refused by name")
    func badPages() async throws {
        let folder = try TemporaryDirectory()
        let input = try Self.twoPages(in: folder)
        let past = try await CommandRunner.run(["convert", input, "-o", folder.path("x.png"), "--page", "2"])
        #expect(past.status != 0)
        #expect(past.stderr.contains("page 2 does not exist: the file has 2"), "\(past.stderr)")
        let negative = try await CommandRunner.run(["convert", input, "-o", folder.path("x.png"), "--page", "-1"])
        #expect(negative.status != 0 && negative.stderr.contains("--page"), "\(negative.stderr)")
        let one = try await CommandRunner.run(["convert", input, "-o", folder.path("one.png")])
        #expect(one.status == 0, "\(one.stderr)")
        let png = try await CommandRunner.run(["convert", folder.path("one.png"), "-o", folder.path("y.png"), "--page", "1"])
        #expect(png.status != 0 && png.stderr.contains("a PNG file has one page"), "\(png.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.png")))
    }
}
