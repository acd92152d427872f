import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing
import DarkroomSources

// MARK: - darkroom convert

@Suite("darkroom convert decodes upright, fits and encodes by extension")
struct ConvertCommandTests {
    @Test("the output format follows the extension", arguments: ["jpg", "png", "webp", "gif", "bmp", "tiff", "avif"])
    func formatFromExtension(ext: String) async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("out.\(ext)")
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient-rgb.png"), "-o", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let bytes = try FileBytes.read(output)
        let header = try ImageProbe.probe(bytes)
        #expect(header.format == ImageFormat(fileExtension: ext))
        let image = try Registry.standard.decode(bytes)
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient(), includeAlpha: false) < 6)
    }

    @Test("--format overrides the extension")
    func formatFlag() async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("out.bin")
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", output, "--format", "webp"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try ImageProbe.probe(FileBytes.read(output)).format == .webp)
    }

    @Test("--max-size fits inside the box keeping the aspect ratio")
    func maxSize() async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("small.png")
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", output, "--max-size", "32x32"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let header = try ImageProbe.probe(FileBytes.read(output))
        #expect(header.size == PixelSize(width: 32, height: 24))
    }

    @Test("--max-size takes one side as vips' --size does: N is NxN, Wx bounds the width, xH the height", arguments: [
        ("24", 24, 18), ("32x", 32, 24), ("x12", 16, 12), ("100x12", 16, 12), ("x200", 64, 48),
    ])
    func oneSidedMaxSize(size: String, width: Int, height: Int) async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("one-sided.png")
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", output, "--max-size", size])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try ImageProbe.probe(FileBytes.read(output)).size == PixelSize(width: width, height: height))
    }

    @Test("--max-size refuses a size with no side, a zero or a third part, naming the forms", arguments: ["x", "0", "0x10", "10x10x10", ""])
    func badMaxSize(size: String) async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", folder.path("o.png"), "--max-size", size])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("WxH, N (NxN), Wx or xH"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("o.png")))
    }

    @Test("render --filter 'aspect-fit(width=N)' fits the width alone")
    func oneSidedFilter() async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("wide.png")
        let outcome = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--filter", "aspect-fit(width=40)", "-o", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try ImageProbe.probe(FileBytes.read(output)).size == PixelSize(width: 40, height: 30))
        let neither = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--filter", "aspect-fit", "-o", output])
        #expect(neither.status == 64)
        #expect(neither.stderr.contains("a width, a height or both"), "\(neither.stderr)")
    }

    @Test("EXIF orientation is applied: a stored-rotated JPEG comes out upright")
    func upright() async throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("upright.png")
        let outcome = try await CommandRunner.run(["convert", Fixtures.path("orientation-6.jpg"), "-o", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let image = try Registry.standard.decode(FileBytes.read(output))
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(ImageComparison.meanAbsoluteError(image, Pattern.gradient(), includeAlpha: false) < 4)
    }

    @Test("--quality changes a JPEG's size")
    func quality() async throws {
        let folder = try TemporaryDirectory()
        let input = Fixtures.path("gradient-rgb.png")
        #expect(try await CommandRunner.run(["convert", input, "-o", folder.path("q20.jpg"), "--quality", "20"]).status == 0)
        #expect(try await CommandRunner.run(["convert", input, "-o", folder.path("q95.jpg"), "--quality", "95"]).status == 0)
        #expect(try FileBytes.read(folder.path("q20.jpg")).count < FileBytes.read(folder.path("q95.jpg")).count)
    }

    @Test("--no-optimize writes the same pixels with libjpeg's standard Huffman tables (more bytes); PNG output warns it is ignored")
    func noOptimize() async throws {
        let folder = try TemporaryDirectory()
        let input = Fixtures.path("gradient-rgb.png")
        #expect(try await CommandRunner.run(["convert", input, "-o", folder.path("optimized.jpg")]).status == 0)
        let onePass = try await CommandRunner.run(["convert", input, "-o", folder.path("one-pass.jpg"), "--no-optimize"])
        #expect(onePass.status == 0 && !onePass.stderr.contains("warning"), "\(onePass.stderr)")
        let optimized = try FileBytes.read(folder.path("optimized.jpg")), unoptimized = try FileBytes.read(folder.path("one-pass.jpg"))
        #expect(unoptimized.count > optimized.count)
        #expect(try Registry.standard.decode(optimized).pixels == Registry.standard.decode(unoptimized).pixels)
        let png = try await CommandRunner.run(["convert", input, "-o", folder.path("x.png"), "--no-optimize"])
        #expect(png.status == 0 && png.stderr.contains("'optimize' does not apply to png"), "\(png.stderr)")
    }
}
