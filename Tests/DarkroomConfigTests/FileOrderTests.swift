import DarkroomConfig
import DarkroomCore
import Foundation
import Testing

@Suite("Files are read in byte-wise name order and a later definition replaces an earlier one")
struct FileOrderTests {
    @Test("a directory's *.toml files are read in byte-wise name order")
    func byteWiseOrder() throws {
        try withTemporaryDirectory { directory in
            // Byte-wise: "10" < "9" < "B" < "a" (a locale-aware sort would differ).
            for name in ["a.toml", "B.toml", "9-late.toml", "10-early.toml"] {
                try "[variants.v]\nfilters = [\"grayscale\"]\n".write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
            }
            let configuration = ConfigLoader.load(directory: directory, filters: catalogue)
            #expect(configuration.files == ["10-early.toml", "9-late.toml", "B.toml", "a.toml"].map { directory + "/" + $0 })
            let v = try #require(configuration.variant(named: "v"))
            #expect(v.definedAt.file == directory + "/a.toml")
            #expect(v.overrides.map(\.file) == ["10-early.toml", "9-late.toml", "B.toml"].map { directory + "/" + $0 })
        }
    }

    @Test("a later file's variant replaces the earlier one entirely, and the override is recorded")
    func laterReplacesEarlier() throws {
        let configuration = load(
            ("10-base.toml", """
                [variants.thumb]
                description = "old"
                filters = ["grayscale", "invert"]
                format = "jpeg"
                quality = 50
                """),
            ("20-site.toml", """

                [variants.thumb]
                filters = [{ filter = "scale", width = 32, height = 32 }]
                """))
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        let thumb = try #require(configuration.variant(named: "thumb"))
        #expect(thumb.chain.identifier == "scale(height=32,width=32)")
        #expect(thumb.description == nil)
        #expect(thumb.encoding == VariantEncoding())
        #expect(thumb.definedAt == SourceLocation(file: "20-site.toml", line: 2, column: 1))
        #expect(thumb.overrides == [SourceLocation(file: "10-base.toml", line: 1, column: 1)])
    }

    @Test("non-TOML, hidden files and subdirectories are ignored")
    func ignoredFiles() throws {
        try withTemporaryDirectory { directory in
            try "[variants.a]\n".write(toFile: directory + "/10-a.toml", atomically: true, encoding: .utf8)
            try "not toml at all [".write(toFile: directory + "/10-a.toml~", atomically: true, encoding: .utf8)
            try "not toml at all [".write(toFile: directory + "/.#10-a.toml", atomically: true, encoding: .utf8)
            try "not toml at all [".write(toFile: directory + "/README.md", atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: directory + "/nested.toml", withIntermediateDirectories: false)
            let configuration = ConfigLoader.load(directory: directory, filters: catalogue)
            #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
            #expect(configuration.files == [directory + "/10-a.toml"])
            #expect(configuration.variantNames == ["a"])
        }
    }
}

/// Runs `body` with a fresh temporary directory, removed afterwards.
func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
    let path = NSTemporaryDirectory() + "darkroom-config-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    try body(path)
}
