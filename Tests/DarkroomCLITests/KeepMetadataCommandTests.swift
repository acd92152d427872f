import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - --keep-metadata and strip = false through the binary

@Suite("darkroom keeps metadata on request: --keep-metadata in convert and render, strip = false in a variant")
struct KeepMetadataCommandTests {
    /// A tagged source in `folder`: a sideways JPEG (orientation 6) with the sample EXIF, XMP and
    /// Adobe RGB profile.
    static func taggedSource(in folder: TemporaryDirectory) throws -> String {
        let bytes = try Registry.standard.encode(
            Pattern.photo(width: 48, height: 32), options: EncodeOptions(format: .jpeg, quality: 90, keepsMetadata: true),
            metadata: MetadataSamples.all)
        let path = folder.path("tagged.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The metadata of the file at `path`.
    static func metadata(_ path: String) throws -> ImageMetadata {
        let bytes = try FileBytes.read(path)
        let header = try ImageProbe.probe(bytes)
        return try Registry.standard.decoder(for: header, options: DecodeOptions()).metadata(in: bytes, header: header)
    }

    @Test("convert --keep-metadata keeps EXIF with orientation 1 and XMP; without it the output is bare", arguments: ["jpg", "png", "webp"])
    func convert(ext: String) async throws {
        let folder = try TemporaryDirectory()
        let source = try Self.taggedSource(in: folder)
        let kept = folder.path("kept.\(ext)"), bare = folder.path("bare.\(ext)")
        var outcome = try await CommandRunner.run(["convert", source, "-o", kept, "--keep-metadata", "--max-size", "20"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        outcome = try await CommandRunner.run(["convert", source, "-o", bare, "--max-size", "20"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let metadata = try Self.metadata(kept)
        #expect(metadata.exif == MetadataSamples.exif(orientation: 1))
        #expect(metadata.xmp == MetadataSamples.xmp)
        #expect(metadata.iccProfile == nil)  // converted to sRGB
        #expect(try Self.metadata(bare).isEmpty)
        // The pixels are upright once, not turned again by a reader of the kept EXIF.
        #expect(try ImageProbe.probe(FileBytes.read(kept)).size == PixelSize(width: 13, height: 20))
        if MetadataSamples.exiftool != nil {
            let tags = try await MetadataSamples.exiftoolTags(kept)
            #expect(tags["Orientation"] == "1")
            #expect(tags["Make"] == MetadataSamples.make)
            #expect(tags["Creator"] == MetadataSamples.creator)
        }
    }

    @Test("--no-auto-orient keeps the stored pixels and so the stored orientation")
    func convertWithoutOrienting() async throws {
        let folder = try TemporaryDirectory()
        let source = try Self.taggedSource(in: folder)
        let out = folder.path("stored.jpg")
        let outcome = try await CommandRunner.run(["convert", source, "-o", out, "--keep-metadata", "--no-auto-orient"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try Self.metadata(out).exif == MetadataSamples.exif(orientation: 6))
    }

    @Test("--keep-metadata with a format that holds none warns, names the setting, and converts")
    func convertToGIF() async throws {
        let folder = try TemporaryDirectory()
        let source = try Self.taggedSource(in: folder)
        let outcome = try await CommandRunner.run(["convert", source, "-o", folder.path("out.gif"), "--keep-metadata"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("'strip' does not apply to gif output and is ignored"), "\(outcome.stderr)")
    }

    @Test("render --keep-metadata keeps it for a --filter chain and for a variant")
    func render() async throws {
        let folder = try TemporaryDirectory()
        let source = try Self.taggedSource(in: folder)
        let chain = folder.path("chain.webp"), variant = folder.path("variant.jpg")
        var outcome = try await CommandRunner.run(
            ["render", source, "--filter", "aspect-fit(width=20)", "-o", chain, "--keep-metadata", "--no-cache"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        outcome = try await CommandRunner.run(
            ["render", source, "--variant", "thumbnail", "-o", variant, "--keep-metadata", "--no-cache"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for path in [chain, variant] {
            let metadata = try Self.metadata(path)
            #expect(metadata.exif == MetadataSamples.exif(orientation: 1), "\(path)")
            #expect(metadata.xmp == MetadataSamples.xmp, "\(path)")
        }
    }

    @Test("a variant with strip = false in filters.d keeps metadata; its neighbour without it strips")
    func variantSetting() async throws {
        let folder = try TemporaryDirectory()
        let source = try Self.taggedSource(in: folder)
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try """
            [variants.archive]
            filters = ["aspect-fit(width=24)"]
            format = "jpeg"
            strip = false

            [variants.web]
            base = "archive"
            strip = true
            """.write(toFile: config + "/50-archive.toml", atomically: true, encoding: .utf8)
        let check = try await CommandRunner.run(["check", "--config", config])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let outcome = try await CommandRunner.run(
            ["render", source, "--variant", "archive", "--variant", "web", "--config", config, "-o", folder.path("out") + "/", "--no-cache"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let archive = try Self.metadata(folder.path("out/archive.jpg"))
        #expect(archive.exif == MetadataSamples.exif(orientation: 1))
        #expect(archive.xmp == MetadataSamples.xmp)
        #expect(try Self.metadata(folder.path("out/web.jpg")).isEmpty)
        let list = try await CommandRunner.run(["list", "--config", config])
        #expect(list.stdout.contains("strip=false"), "\(list.stdout)")
    }
}

// MARK: - batch

@Suite("darkroom batch --keep-metadata keeps metadata in every variant's files")
struct KeepMetadataBatchTests {
    @Test("each file of each variant keeps EXIF (orientation 1) and XMP; without the flag none does")
    func batch() async throws {
        let folder = try TemporaryDirectory()
        let source = try KeepMetadataCommandTests.taggedSource(in: folder)
        let kept = folder.path("kept"), bare = folder.path("bare")
        var outcome = try await CommandRunner.run(
            ["batch", source, "--variant", "thumbnail", "--variant", "avatar", "--out", kept, "--keep-metadata", "--no-cache"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        outcome = try await CommandRunner.run(["batch", source, "--variant", "thumbnail", "--out", bare, "--no-cache"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let written = try FileManager.default.subpathsOfDirectory(atPath: kept).filter { $0.contains(".") }
        #expect(written.count == 2, "\(written)")
        for file in written {
            let metadata = try KeepMetadataCommandTests.metadata(kept + "/" + file)
            #expect(metadata.exif == MetadataSamples.exif(orientation: 1), "\(file)")
            #expect(metadata.xmp == MetadataSamples.xmp, "\(file)")
        }
        for file in try FileManager.default.subpathsOfDirectory(atPath: bare) where file.contains(".") {
            #expect(try KeepMetadataCommandTests.metadata(bare + "/" + file).isEmpty, "\(file)")
        }
    }
}
