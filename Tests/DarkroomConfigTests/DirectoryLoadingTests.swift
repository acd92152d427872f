import DarkroomConfig
import DarkroomCore
import Foundation
import Testing

@Suite("Loading a directory: missing is an error, empty is a valid empty configuration")
struct DirectoryLoadingTests {
    @Test("a missing directory is one diagnostic naming it")
    func missingDirectory() {
        let path = NSTemporaryDirectory() + "darkroom-config-missing-" + UUID().uuidString
        let configuration = ConfigLoader.load(directory: path, filters: catalogue)
        #expect(printed(configuration) == ["\(path): configuration directory does not exist"])
        #expect(configuration.hasErrors)
        #expect(configuration.files.isEmpty)
    }

    @Test("a path that is a file, not a directory, is a diagnostic")
    func notADirectory() throws {
        try withTemporaryDirectory { directory in
            let file = directory + "/filters.toml"
            try "[variants.a]\n".write(toFile: file, atomically: true, encoding: .utf8)
            #expect(printed(ConfigLoader.load(directory: file, filters: catalogue))
                == ["\(file): configuration path is not a directory"])
        }
    }

    @Test("an empty directory is a valid empty configuration")
    func emptyDirectory() throws {
        try withTemporaryDirectory { directory in
            let configuration = ConfigLoader.load(directory: directory, filters: catalogue)
            #expect(configuration.diagnostics.isEmpty)
            #expect(configuration.variants.isEmpty)
            #expect(configuration.files.isEmpty)
            #expect(!configuration.hasErrors)
        }
    }

    @Test("a file that is not UTF-8 is reported, and the other files still load")
    func invalidUTF8() throws {
        try withTemporaryDirectory { directory in
            try Data([0x5B, 0xFF, 0xFE, 0x5D]).write(to: URL(fileURLWithPath: directory + "/10-bad.toml"))
            try "[variants.good]\nfilters = [\"invert\"]\n".write(toFile: directory + "/20-good.toml", atomically: true, encoding: .utf8)
            let configuration = ConfigLoader.load(directory: directory + "/", filters: catalogue)
            #expect(printed(configuration) == ["\(directory)/10-bad.toml:1: file is not valid UTF-8 (byte 0xFF)"])
            #expect(configuration.variantNames == ["good"])
        }
    }

    @Test("a Latin-1 byte in a later line is reported at that line")
    func invalidUTF8Line() throws {
        try withTemporaryDirectory { directory in
            let text = Array("[variants.a]\ndescription = \"caf".utf8) + [0xE9] + Array("\"\n".utf8)
            try Data(text).write(to: URL(fileURLWithPath: directory + "/10-latin1.toml"))
            let configuration = ConfigLoader.load(directory: directory, filters: catalogue)
            #expect(printed(configuration) == ["\(directory)/10-latin1.toml:2: file is not valid UTF-8 (byte 0xE9)"])
        }
    }

    @Test("load(files:) reads the files in the order given and reports unreadable ones")
    func explicitFiles() throws {
        try withTemporaryDirectory { directory in
            try "[variants.v]\nformat = \"png\"\n".write(toFile: directory + "/b.toml", atomically: true, encoding: .utf8)
            try "[variants.v]\nformat = \"gif\"\n".write(toFile: directory + "/a.toml", atomically: true, encoding: .utf8)
            let configuration = ConfigLoader.load(
                files: [directory + "/b.toml", directory + "/nope.toml", directory + "/a.toml"], filters: catalogue)
            #expect(printed(configuration) == ["\(directory)/nope.toml: cannot read file"])
            #expect(configuration.files == [directory + "/b.toml", directory + "/a.toml"])
            #expect(configuration.variant(named: "v")?.encoding.format == .gif)
        }
    }
}
