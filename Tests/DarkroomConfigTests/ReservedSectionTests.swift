import DarkroomConfig
import DarkroomCore
import Testing

@Suite("[caches.*] and [sources.*] are kept, with their lines, for later components")
struct ReservedSectionTests {
    @Test("reserved sections keep every value with its location")
    func keptWithLocations() throws {
        let configuration = load(
            ("10-caches.toml", """
                [caches.memory]
                limit-mb = 256
                ratio = 0.75
                enabled = true

                [caches.disk]
                path = "/var/cache/darkroom"
                hosts = [
                  "a.example",
                  "b.example",
                ]
                since = 2024-01-02
                """),
            ("20-sources.toml", """
                [sources.web]
                allowed-schemes = ["https"]
                [sources.web.limits]
                max-bytes = 1_000_000
                """))
        // [caches.memory] and [caches.disk] keys are validated by CacheSettings; tables of other
        // kinds ([sources.web]) by the registry that knows their kind. The made-up keys here are
        // reported as unknown, and the values are still kept with their locations.
        #expect(configuration.diagnostics.count == 5 && configuration.diagnostics.allSatisfy { $0.message.contains("unknown") },
                "\(printed(configuration))")
        let memory = try #require(configuration.caches["memory"])
        #expect(memory.location == SourceLocation(file: "10-caches.toml", line: 1, column: 1))
        #expect(memory["limit-mb"]?.integer == 256)
        #expect(memory["limit-mb"]?.location.line == 2)
        #expect(memory["ratio"]?.number == 0.75)
        #expect(memory["enabled"]?.boolean == true)
        let disk = try #require(configuration.caches["disk"])
        #expect(disk["path"]?.string == "/var/cache/darkroom")
        #expect(disk["hosts"]?.array?.map(\.location.line) == [9, 10])
        #expect(disk["hosts"]?.array?.compactMap(\.string) == ["a.example", "b.example"])
        #expect(disk["since"]?.value == .dateTime("2024-01-02"))
        let web = try #require(configuration.sources["web"])
        #expect(web["limits"]?["max-bytes"]?.integer == 1_000_000)
        #expect(web["limits"]?["max-bytes"]?.location == SourceLocation(file: "20-sources.toml", line: 4, column: 1))
        #expect(web.orderedMembers.map(\.key) == ["allowed-schemes", "limits"])
    }

    @Test("a later file's reserved entry replaces an earlier one of the same name")
    func laterEntryReplaces() {
        let configuration = load(
            ("10-a.toml", "[caches.memory]\nlimit-mb = 1\n[caches.disk]\npath = \"/a\"\n"),
            ("20-b.toml", "[caches.memory]\nlimit-mb = 2\n"))
        #expect(configuration.caches["memory"]?["limit-mb"]?.integer == 2)
        #expect(configuration.caches["memory"]?.location.file == "20-b.toml")
        #expect(configuration.caches["disk"]?["path"]?.string == "/a")
    }

    @Test("a reserved section that is not a table is an error")
    func notATable() {
        #expect(printed(load(("a.toml", "\ncaches = \"big\"\n")))
            == ["a.toml:2: 'caches' must be a table of [caches.NAME] sections, not a string"])
    }
}
