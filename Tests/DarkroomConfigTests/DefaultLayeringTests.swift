import DarkroomConfig
import DarkroomCore
import Foundation
import Testing

// MARK: - A folder over the defaults

@Suite("A folder is read over the defaults: theirs first, a later definition wins, [defaults] include = false opts out")
struct DefaultLayeringTests {
    static let defaults = [
        ConfigSource(name: "(built-in)/10-basics.toml", text: """
            [variants.gray]
            filters = ["grayscale"]

            [variants.shared]
            filters = ["grayscale"]

            [caches.memory]
            capacity = "10MB"
            """),
    ]

    func load(_ files: [String: String]) throws -> Configuration {
        var configuration: Configuration?
        try withTemporaryDirectory { directory in
            for (name, text) in files {
                try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
            }
            configuration = ConfigLoader.load(directory: directory, over: Self.defaults, filters: catalogue)
        }
        return try #require(configuration)
    }

    @Test("a folder with only a [sources.http] table keeps the defaults' variants and caches")
    func onlySources() throws {
        let configuration = try load(["10-http.toml": "[sources.http]\ntimeout = \"5s\"\n"])
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        #expect(configuration.variants.map(\.name).sorted() == ["gray", "shared"])
        #expect(configuration.reservedSections["caches"]?["memory"] != nil)
        #expect(configuration.reservedSections["sources"]?["http"] != nil)
        #expect(configuration.files.first == "(built-in)/10-basics.toml")
    }

    @Test("the folder's definition of a name replaces the default's, which it lists as overridden")
    func laterWins() throws {
        let configuration = try load(["20-mine.toml": "[variants.shared]\nfilters = [\"invert\"]\n"])
        let shared = try #require(configuration.variant(named: "shared"))
        #expect(shared.definedAt.file.hasSuffix("20-mine.toml"))
        #expect(shared.overrides.map(\.file) == ["(built-in)/10-basics.toml"])
        #expect(configuration.variant(named: "gray")?.definedAt.file == "(built-in)/10-basics.toml")
    }

    @Test("caches are one stack: a folder with any [caches.*] table leaves out the defaults' caches, and keeps their variants")
    func ownCacheStack() throws {
        let configuration = try load(["10-caches.toml": "[caches.shared]\ntype = \"memcached\"\nservers = [\"127.0.0.1:11211\"]\n"])
        #expect(configuration.reservedSections["caches"]?.keys.sorted() == ["shared"])
        #expect(configuration.variants.count == 2)
    }

    @Test("[defaults] include = false in any file reads the folder alone")
    func optOut() throws {
        let configuration = try load([
            "10-mine.toml": "[variants.mine]\nfilters = [\"grayscale\"]\n",
            "00-defaults.toml": "[defaults]\ninclude = false\n",
        ])
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        #expect(configuration.variants.map(\.name) == ["mine"])
        #expect(configuration.reservedSections["caches"] == nil)
        #expect(configuration.files.allSatisfy { !$0.hasPrefix("(built-in)/") })
    }

    @Test("[defaults] include = true is the same as no [defaults]")
    func explicitInclude() throws {
        let configuration = try load(["10.toml": "[defaults]\ninclude = true\n"])
        #expect(configuration.diagnostics.isEmpty, "\(printed(configuration))")
        #expect(configuration.variants.count == 2)
    }

    @Test("a wrong [defaults] is an error at its line, naming what is allowed", arguments: [
        ("[defaults]\ninclude = \"no\"\n", "10.toml:2: [defaults] include must be true or false, not a string"),
        ("[defaults]\nincluded = false\n", "10.toml:2: unknown key 'included' in [defaults] (did you mean 'include'?); known keys: include"),
        ("defaults = 3\n", "10.toml:1: 'defaults' must be a table ([defaults]), not an integer"),
    ])
    func wrongDefaults(text: String, expected: String) throws {
        let configuration = try load(["10.toml": text])
        let errors = configuration.errors.map { "\($0)" }
        #expect(errors.count == 1)
        #expect(errors.first?.hasSuffix(expected) == true, "\(errors)")
    }

    @Test("a default naming a filter this registry lacks is no error of the folder's; asked for, it says why it is missing")
    func defaultWithUnknownFilter() throws {
        var configuration: Configuration?
        try withTemporaryDirectory { directory in
            try "[variants.mine]\nfilters = [\"grayscale\"]\n".write(toFile: directory + "/10.toml", atomically: true, encoding: .utf8)
            let defaults = Self.defaults + [ConfigSource(name: "(built-in)/90-extension.toml", text: "[variants.extra]\nfilters = [\"vignette\"]\n")]
            configuration = ConfigLoader.load(directory: directory, over: defaults, filters: catalogue)
        }
        let loaded = try #require(configuration)
        #expect(loaded.diagnostics.isEmpty, "\(printed(loaded))")
        #expect(loaded.variants.map(\.name).sorted() == ["gray", "mine", "shared"])
        #expect(loaded.unresolvedVariants == ["extra"])
        #expect(loaded.unresolvedReasons["extra"].map { "\($0)" }?.contains("unknown filter 'vignette'") == true)
    }

    @Test("a missing folder is an error alone: the defaults are not read in its place")
    func missingFolder() {
        let path = NSTemporaryDirectory() + "darkroom-layering-missing-" + UUID().uuidString
        let configuration = ConfigLoader.load(directory: path, over: Self.defaults, filters: catalogue)
        #expect(printed(configuration) == ["\(path): configuration directory does not exist"])
        #expect(configuration.variants.isEmpty)
    }
}
