import DarkroomTestSupport
import Foundation
import Testing

// MARK: - darkroom check and list

@Suite("darkroom check reports every error as file:line: message")
struct CheckCommandTests {
    static let repository = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()

    @Test("the shipped filters.d passes")
    func shippedPasses() async throws {
        let outcome = try await CommandRunner.run(["check", "--config", Self.repository.appendingPathComponent("filters.d").path])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test("a header without a key ('[=efaults]', found by fuzz-config) is a config error, not an abort in the TOML library")
    func headerWithoutKey() async throws {
        let folder = try TemporaryDirectory()
        try Data("[=efaults]\ninclude = false\n".utf8).write(to: folder.url.appendingPathComponent("20-x.toml"))
        let outcome = try await CommandRunner.run(["check", "--config", folder.url.path])
        #expect(outcome.status == 78, "\(outcome.stdout)\(outcome.stderr)")
        #expect((outcome.stdout + outcome.stderr).contains("20-x.toml:1: a table header must start with a key"))
    }

    @Test("a cache or source table of a kind nobody registered is an error naming the known kinds")
    func unknownKinds() async throws {
        let folder = try TemporaryDirectory()
        try Data("""
            [caches.shared]
            type = "memcache"

            [caches.local]
            type = "memory"
            capacity = "1MB"

            [sources.photos]
            type = "s4"
            """.utf8).write(to: folder.url.appendingPathComponent("10-a.toml"))
        let outcome = try await CommandRunner.run(["check", "--config", folder.url.path])
        #expect(outcome.status == 78)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            folder.url.path + "/10-a.toml:2: [caches.shared] unknown cache type 'memcache' (did you mean 'memcached'?); known kinds: disk, memcached, memory",
            folder.url.path + "/10-a.toml:9: [sources.photos] unknown source type 's4' (did you mean 's3'?); known kinds: http, s3",
        ], "\(lines)")
        #expect(outcome.stderr.contains("2 errors"))
    }

    @Test("a broken folder exits 78 (EX_CONFIG) with each error on its own file:line")
    func brokenFolder() async throws {
        let folder = try TemporaryDirectory()
        try Data("""
            [variants.a]
            filters = [ { filter = "blurr", sigma = 2 } ]

            [variants.b]
            base = "missing"
            """.utf8).write(to: folder.url.appendingPathComponent("10-a.toml"))
        try Data("""
            [variants.c]
            filters = [ { filter = "blur", sigma = 500 } ]
            """.utf8).write(to: folder.url.appendingPathComponent("20-c.toml"))
        let outcome = try await CommandRunner.run(["check", "--config", folder.url.path])
        #expect(outcome.status == 78)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.hasPrefix(folder.url.path + "/10-a.toml:2: ") && $0.contains("did you mean 'blur'") })
        #expect(lines.contains { $0.hasPrefix(folder.url.path + "/10-a.toml:5: ") && $0.contains("missing") })
        #expect(lines.contains { $0.hasPrefix(folder.url.path + "/20-c.toml:2: ") && $0.contains("0.3…100") })
    }

    @Test("a format the tool has no encoder for fails the check at its line")
    func unwritableFormat() async throws {
        let folder = try TemporaryDirectory()
        try Data("[variants.t]\nfilters = [\"grayscale\"]\nformat = \"tga\"\n".utf8)
            .write(to: folder.url.appendingPathComponent("10-t.toml"))
        let outcome = try await CommandRunner.run(["check", "--config", folder.url.path])
        #expect(outcome.status == 78)
        #expect(outcome.stdout.hasPrefix(folder.url.path + "/10-t.toml:3: format 'tga' cannot be written"), "\(outcome.stdout)")
    }

    @Test("$DARKROOM_CONFIG is used when --config is not given")
    func environment() async throws {
        let folder = try TemporaryDirectory()
        try Data("[variants.x]\nfilters = [\"nope\"]\n".utf8).write(to: folder.url.appendingPathComponent("a.toml"))
        let outcome = try await CommandRunner.run(["check"], environment: ["DARKROOM_CONFIG": folder.url.path])
        #expect(outcome.status == 78)
        #expect(outcome.stdout.contains("a.toml:2: "))
    }
}

@Suite("darkroom list shows filters with their arguments and variants with identifiers")
struct ListCommandTests {
    @Test("JSON lists every filter's declared arguments and every variant's identifier and origin")
    func json() async throws {
        let config = CheckCommandTests.repository.appendingPathComponent("filters.d").path
        let outcome = try await CommandRunner.run(["list", "--config", config, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let filters = try #require(object["filters"] as? [[String: Any]])
        let blur = try #require(filters.first { $0["name"] as? String == "blur" })
        let sigma = try #require((blur["arguments"] as? [[String: Any]])?.first)
        #expect(sigma["name"] as? String == "sigma")
        #expect(sigma["minimum"] as? Double == 0.3)
        #expect(filters.contains { $0["name"] as? String == "vignette" && $0["origin"] as? String == "DarkroomExampleFilters" })
        let variants = try #require(object["variants"] as? [[String: Any]])
        let avatar = try #require(variants.first { $0["name"] as? String == "avatar" })
        #expect((avatar["identifier"] as? String)?.hasSuffix("|circle>png(compression=6)") == true)
        #expect((avatar["definedAt"] as? String)?.contains("20-avatars.toml:") == true)
    }

    @Test("an overriding file is shown as overriding")
    func overrides() async throws {
        let folder = try TemporaryDirectory()
        try Data("[variants.x]\nfilters = [\"grayscale\"]\n".utf8).write(to: folder.url.appendingPathComponent("10-a.toml"))
        try Data("[variants.x]\nfilters = [\"negate\"]\n".utf8).write(to: folder.url.appendingPathComponent("20-b.toml"))
        let outcome = try await CommandRunner.run(["list", "--config", folder.url.path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("identifier: negate>auto()"))
        #expect(outcome.stdout.contains("overrides:  \(folder.url.path)/10-a.toml:1"))
        #expect(outcome.stdout.contains("exceed [limits] max-pixels (at most 100 megapixels) refuses the image"))
    }

    @Test("a --config folder that does not exist exits 78 (EX_CONFIG) with its reason, as check does")
    func missingFolder() async throws {
        let folder = try TemporaryDirectory()
        let missing = folder.url.appendingPathComponent("filters.d").path
        for arguments in [["list", "--config", missing], ["list", "--config", missing, "--json"]] {
            let outcome = try await CommandRunner.run(arguments)
            #expect(outcome.status == 78, "\(arguments): \(outcome.stdout)")
            #expect(outcome.stderr.contains("\(missing): configuration directory does not exist"), "\(outcome.stderr)")
        }
    }
}

// MARK: - Which configuration a command reads

/// The tool starts loading the configuration while it parses the command line, from a guess at
/// the `--config` value; whatever the spelling, the configuration used must be the parsed one.
@Suite("A command reads the configuration its parsed --config names, however it is spelled")
struct ConfigSpellingTests {
    /// A folder whose one file has an unknown filter named `name`, reported by `check`.
    func brokenFolder(naming name: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try Data("[variants.v]\nfilters = [\"\(name)\"]\n".utf8).write(to: folder.url.appendingPathComponent("\(name).toml"))
        return folder
    }

    @Test("--config=DIR, --config DIR, and the last of several --config are all the folder used")
    func spellings() async throws {
        let first = try brokenFolder(naming: "first")
        let second = try brokenFolder(naming: "second")
        for arguments in [
            ["check", "--config=\(second.url.path)"],
            ["check", "--config", second.url.path],
            ["check", "--config", first.url.path, "--config", second.url.path],
            ["check", "--config=\(first.url.path)", "--config", second.url.path],
        ] {
            let outcome = try await CommandRunner.run(arguments)
            #expect(outcome.status == 78, "\(arguments)")
            #expect(outcome.stdout.contains("second.toml:2: unknown filter 'second'"), "\(arguments): \(outcome.stdout)")
            #expect(!outcome.stdout.contains("first"), "\(arguments): \(outcome.stdout)")
        }
    }

    @Test("a --config after the -- terminator is an input, not the configuration")
    func afterTerminator() async throws {
        let broken = try brokenFolder(naming: "ignored")
        let out = try TemporaryDirectory()
        let config = CheckCommandTests.repository.appendingPathComponent("filters.d").path
        let outcome = try await CommandRunner.run([
            "batch", "--variant", "thumbnail", "--out", out.url.path, "--config", config, "--no-cache",
            "--", Fixtures.path("gradient.jpg"), "--config=\(broken.url.path)",
        ])
        // After --, "--config=…" is an input, a missing file: the batch stops on it. Had the
        // broken folder been read as the configuration, it would have stopped earlier, on the
        // variant 'thumbnail' that folder lacks.
        #expect(outcome.status == 66, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("--config=\(broken.url.path): no such file"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("thumbnail"), "\(outcome.stderr)")
    }
}
