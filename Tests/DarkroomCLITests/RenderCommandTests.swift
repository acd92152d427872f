import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing
import DarkroomSources

// MARK: - darkroom render

@Suite("darkroom render writes variants or an ad-hoc chain")
struct RenderCommandTests {
    static let config = CheckCommandTests.repository.appendingPathComponent("filters.d").path

    @Test("a setting the output format has no use for is named in a warning, and the render goes on")
    func ignoredSettingWarns() async throws {
        let folder = try TemporaryDirectory()
        let out = folder.path("x.png")
        let viaArrow = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--filter", "grayscale>png(quality=50)", "-o", out, "--no-cache"])
        #expect(viaArrow.status == 0, "\(viaArrow.stderr)")
        #expect(viaArrow.stderr.contains("warning: 'quality' does not apply to png output and is ignored"))
        let viaOption = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--filter", "grayscale", "--quality", "50", "-o", out, "--no-cache"])
        #expect(viaOption.status == 0 && viaOption.stderr.contains("'quality' does not apply to png"), "\(viaOption.stderr)")
        let convert = try await CommandRunner.run(["convert", Fixtures.path("gradient.jpg"), "-o", out, "--progressive"])
        #expect(convert.status == 0 && convert.stderr.contains("'progressive' does not apply to png"), "\(convert.stderr)")
        let applies = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--filter", "grayscale>jpeg(quality=50)", "-o", folder.path("x.jpg"), "--no-cache"])
        #expect(applies.status == 0 && applies.stderr.isEmpty, "\(applies.stderr)")
    }

    @Test("a '>' inside a filter's arguments is refused with the escape to use")
    func arrowInsideArguments() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--filter", "overlay(path=a>b.png)", "-o", folder.path("x.png")])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("%3E"), "\(outcome.stderr)")
    }

    @Test("one variant to a file")
    func oneVariant() async throws {
        let folder = try TemporaryDirectory()
        let out = folder.path("avatar.png")
        let outcome = try await CommandRunner.run(["render", Fixtures.path("orientation-6.jpg"), "--variant", "avatar", "--config", Self.config, "-o", out])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let header = try ImageProbe.probe(FileBytes.read(out))
        #expect(header.format == .png)
        #expect(header.size == PixelSize(width: 128, height: 128))
    }

    @Test("several variants to a folder, one file per variant")
    func severalVariants() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run([
            "render", Fixtures.path("gradient.jpg"), "--variant", "thumbnail", "--variant", "avatar",
            "--config", Self.config, "-o", folder.path("out"),
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try ImageProbe.probe(FileBytes.read(folder.path("out/thumbnail.jpg"))).size == PixelSize(width: 64, height: 48))
        #expect(try ImageProbe.probe(FileBytes.read(folder.path("out/avatar.png"))).size == PixelSize(width: 128, height: 128))
    }

    @Test("a variant's file is the same rendered alone, beside a variant needing a larger decode, or from the cache")
    func sameBytesInAnyCompany() async throws {
        let folder = try TemporaryDirectory()
        let photo = CheckCommandTests.repository.appendingPathComponent("Samples/path.jpg").path  // 1280×800
        let environment = ["DARKROOM_CACHE_DIR": folder.path("cache")]
        func render(_ variants: [String], to out: String) async throws {
            let outcome = try await CommandRunner.run(
                ["render", photo] + variants.flatMap { ["--variant", $0] } + ["--config", Self.config, "-o", out],
                environment: environment)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        // thumbnail decodes at 1/2 alone; hero needs the full size. The cache is filled by
        // the render beside hero, so the last render is served from it.
        try await render(["thumbnail", "hero"], to: folder.path("both"))
        try await render(["thumbnail"], to: folder.path("cached.jpg"))
        let alone = try await CommandRunner.run(
            ["render", photo, "--variant", "thumbnail", "--config", Self.config, "-o", folder.path("alone.jpg"), "--no-cache"])
        #expect(alone.status == 0, "\(alone.stderr)")
        let expected = try FileBytes.read(folder.path("alone.jpg"))
        #expect(try FileBytes.read(folder.path("both/thumbnail.jpg")) == expected)
        #expect(try FileBytes.read(folder.path("cached.jpg")) == expected)
    }

    @Test("every identifier darkroom list prints, given to --filter as it is, renders the variant's bytes")
    func identifiersRoundTrip() async throws {
        let folder = try TemporaryDirectory()
        let list = try await CommandRunner.run(["list", "--config", Self.config, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
        let variants = try #require(object["variants"] as? [[String: Any]])
        #expect(variants.count > 10)
        let source = Fixtures.path("orientation-6.jpg")
        for variant in variants {
            let name = try #require(variant["name"] as? String), identifier = try #require(variant["identifier"] as? String)
            let format = identifier.split(separator: ">").last.flatMap { $0.split(separator: "(").first }.map(String.init) ?? "auto"
            let fileExtension = ImageFormat(name: format)?.preferredFileExtension ?? "jpg"
            let byName = folder.path("\(name)-variant.\(fileExtension)"), byIdentifier = folder.path("\(name)-filter.\(fileExtension)")
            let a = try await CommandRunner.run(
                ["render", source, "--variant", name, "--config", Self.config, "-o", byName, "--no-cache"])
            let b = try await CommandRunner.run(
                ["render", source, "--filter", identifier, "--config", Self.config, "-o", byIdentifier, "--no-cache"])
            #expect(a.status == 0 && b.status == 0, "\(name): \(a.stderr) \(b.stderr)")
            #expect(try FileBytes.read(byName) == FileBytes.read(byIdentifier), "\(name): \(identifier)")
        }
    }

    @Test("--filter takes a '|' chain and '>' settings; mistakes in them are named")
    func chainAndSettingsInFilter() async throws {
        let folder = try TemporaryDirectory()
        let chained = try await CommandRunner.run([
            "render", Fixtures.path("gradient.jpg"), "--filter", "grayscale|flip>png(compression=9)", "-o", folder.path("a.png"),
        ])
        #expect(chained.status == 0, "\(chained.stderr)")
        let cases: [([String], String)] = [
            (["--filter", "blur(sigma=2)|", "-o", folder.path("x.jpg")], "one is empty"),
            (["--filter", "grayscale>jpeg(qualty=80)", "-o", folder.path("x.jpg")], "did you mean 'quality'"),
            (["--filter", "grayscale>jpeg(quality=0)", "-o", folder.path("x.jpg")], "invalid quality '0'"),
            (["--filter", "grayscale>jepg", "-o", folder.path("x.jpg")], "did you mean 'jpeg'"),
            (["--filter", "grayscale>png", "-o", folder.path("x.jpg")], "a .png file"),
            (["--filter", "grayscale>jpeg", "--quality", "50", "-o", folder.path("x.jpg")], "the encoder settings once"),
            (["--filter", "grayscale>jpeg", "--filter", "flip", "-o", folder.path("x.jpg")], "only at the end of the last --filter"),
        ]
        for (arguments, message) in cases {
            let outcome = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg")] + arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.jpg")))
    }

    @Test("--filter builds an ad-hoc chain in identifier syntax; the format follows the extension")
    func adHocChain() async throws {
        let folder = try TemporaryDirectory()
        let out = folder.path("small.webp")
        let outcome = try await CommandRunner.run([
            "render", Fixtures.path("gradient-rgba.png"), "--filter", "aspect-fill(height=16,width=16)", "--filter", "grayscale", "-o", out,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let image = try Registry.standard.decode(FileBytes.read(out))
        #expect(image.size == PixelSize(width: 16, height: 16))
        #expect(image.pixels.enumerated().allSatisfy { i, _ in i % 4 == 3 || abs(Int(image.pixels[i - i % 4]) - Int(image.pixels[i])) <= 2 })
    }

    @Test("an unknown variant names the nearest one")
    func unknownVariant() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--variant", "avatr", "--config", Self.config, "-o", folder.path("x.png")])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("did you mean 'avatar'"))
        #expect(outcome.stderrLines.count == 1)
    }

    @Test("a variant left out by config errors is refused in one line that says what is wrong, and where")
    func brokenConfiguration() async throws {
        let folder = try TemporaryDirectory()
        try Data("[variants.other]\nformat = \"pgn\"\n".utf8).write(to: folder.url.appendingPathComponent("05-other.toml"))
        try Data("[variants.a]\nfilters = [ { filter = \"blurr\", sigma = 2 } ]\n".utf8).write(to: folder.url.appendingPathComponent("10-a.toml"))
        let broken = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--variant", "a", "--config", folder.url.path, "-o", folder.path("x.png")])
        #expect(broken.status == 64)
        #expect(broken.stderrLines.count == 1)
        #expect(broken.stderr.contains("10-a.toml:2: unknown filter 'blurr' (did you mean 'blur'?)"), "\(broken.stderr)")
        #expect(!broken.stderr.contains("pgn"))
        let missing = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--variant", "a", "--config", folder.path("nowhere"), "-o", folder.path("x.png")])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("nowhere: configuration directory does not exist"), "\(missing.stderr)")
    }

    @Test("an unknown filter names the nearest one")
    func unknownFilter() async throws {
        let folder = try TemporaryDirectory()
        let outcome = try await CommandRunner.run(["render", Fixtures.path("gradient.jpg"), "--filter", "grayscal", "-o", folder.path("x.png")])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("did you mean 'grayscale'"))
    }
}

// MARK: - darkroom batch

@Suite("darkroom batch renders many inputs, survives failures and summarises")
struct BatchCommandTests {
    @Test("good inputs are rendered, a bad one is listed, and the exit status is its EX_DATAERR (65)")
    func mixed() async throws {
        let input = try TemporaryDirectory()
        for name in ["gradient.jpg", "gradient-rgba.png", "blocks.gif", "truncated.jpg"] {
            try FileManager.default.copyItem(atPath: Fixtures.path(name), toPath: input.path(name))
        }
        try FileManager.default.createDirectory(atPath: input.path("nested"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.path("gradient-lossy.webp"), toPath: input.path("nested/w.webp"))
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: input.path("notes.txt")))
        let out = try TemporaryDirectory()
        let outcome = try await CommandRunner.run([
            "batch", input.url.path, "--variant", "thumbnail", "--variant", "avatar",
            "--config", RenderCommandTests.config, "--out", out.url.path, "--jobs", "2",
        ])
        #expect(outcome.status == 65)
        #expect(outcome.stdout.contains("batch: 4 done, 1 failed, 8 files written"), "\(outcome.stdout)")
        #expect(outcome.stderrLines.count == 1)
        #expect(outcome.stderr.contains("truncated.jpg: truncated JPEG data"))
        #expect(outcome.stdout.contains("[5/5]"))
        for stem in ["gradient", "gradient-rgba", "blocks", "nested/w"] {
            #expect(FileManager.default.fileExists(atPath: out.path("thumbnail/\(stem).jpg")), "\(stem)")
            #expect(FileManager.default.fileExists(atPath: out.path("avatar/\(stem).png")), "\(stem)")
        }
    }

    @Test("a missing input or another scheme is one failure: the others are rendered, each failure listed, the first one's status")
    func unusableArguments() async throws {
        let out = try TemporaryDirectory()
        let missing = out.path("missing.jpg")
        let outcome = try await CommandRunner.run([
            "batch", missing, Fixtures.path("gradient.jpg"), "ftp://127.0.0.1/a.jpg", Fixtures.path("blocks.gif"),
            "--variant", "thumbnail", "--config", RenderCommandTests.config, "--out", out.path("o"), "--jobs", "2",
        ])
        #expect(outcome.status == 66)
        #expect(outcome.stdout.contains("batch: 2 done, 2 failed, 2 files written"), "\(outcome.stdout)")
        #expect(outcome.stderrLines == [
            "darkroom: error: \(missing): no such file or directory",
            "darkroom: error: ftp://127.0.0.1/a.jpg: invalid input 'ftp://127.0.0.1/a.jpg': expected a file, a folder "
                + "or an http(s) URL (ftp:// is not supported)",
        ], "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.path("o/thumbnail/gradient.jpg")))
        #expect(FileManager.default.fileExists(atPath: out.path("o/thumbnail/blocks.jpg")))
    }

    @Test("all good inputs exit 0")
    func allGood() async throws {
        let out = try TemporaryDirectory()
        let outcome = try await CommandRunner.run([
            "batch", Fixtures.path("gradient.jpg"), Fixtures.path("blocks.gif"), "--variant", "square",
            "--config", RenderCommandTests.config, "--out", out.url.path,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try ImageProbe.probe(FileBytes.read(out.path("square/blocks.jpg"))).size == PixelSize(width: 200, height: 200))
    }

    @Test("a bad variant is reported before a missing input, and a missing input alone names itself")
    func errorOrder() async throws {
        let out = try TemporaryDirectory()
        let missing = out.path("missing.jpg")
        let both = try await CommandRunner.run([
            "batch", missing, "--variant", "avatr", "--config", RenderCommandTests.config, "--out", out.url.path,
        ])
        #expect(both.status == 64)
        #expect(both.stderrLines.count == 1, "\(both.stderr)")
        #expect(both.stderr.contains("did you mean 'avatar'"), "\(both.stderr)")
        let inputOnly = try await CommandRunner.run([
            "batch", missing, "--variant", "avatar", "--config", RenderCommandTests.config, "--out", out.url.path,
        ])
        #expect(inputOnly.status == 66)
        #expect(inputOnly.stderr == "darkroom: error: \(missing): no such file or directory\n", "\(inputOnly.stderr)")
    }
}
