import DarkroomConfig
import DarkroomCore
import Testing

// MARK: - [decode]

@Suite("[decode] fail-on is read over the files in order, with file:line errors")
struct DecodeSettingsTests {
    func load(_ texts: [String]) -> Configuration {
        ConfigLoader.load(
            sources: texts.enumerated().map { ConfigSource(name: "\($0.offset + 10)-decode.toml", text: $0.element) }, filters: [:])
    }

    @Test("without [decode] the level is warning, set nowhere")
    func defaults() {
        let settings = load([""]).decodeSettings
        #expect(settings.failOn == .warning)
        #expect(settings.failOnLocation == nil)
    }

    @Test("every level is read, and applied to decode options", arguments: FailOn.allCases)
    func levels(level: FailOn) {
        let configuration = load(["[decode]\nfail-on = \"\(level.rawValue)\"\n"])
        #expect(configuration.diagnostics.isEmpty)
        #expect(configuration.decodeSettings.failOn == level)
        #expect(configuration.decodeSettings.failOnLocation?.line == 2)
        #expect(configuration.decodeSettings.applied(to: DecodeOptions()).failOn == level)
    }

    @Test("a later file's fail-on wins; a later file without one keeps the earlier")
    func laterFileWins() {
        #expect(load(["[decode]\nfail-on = \"none\"\n", "[decode]\nfail-on = \"error\"\n"]).decodeSettings.failOn == .error)
        let kept = load(["[decode]\nfail-on = \"truncated\"\n", "[variants]\n"]).decodeSettings
        #expect(kept.failOn == .truncated)
        #expect(kept.failOnLocation?.file == "10-decode.toml")
    }

    @Test("a wrong value, a wrong type, an unknown key and a non-table are errors at their line")
    func errors() {
        let misspelt = load(["[decode]\nfail-on = \"truncate\"\n"])
        #expect(misspelt.errors.map(\.description) == [
            "10-decode.toml:2: [decode] fail-on must be one of none, truncated, error, warning, not 'truncate' (did you mean 'truncated'?)"
        ])
        #expect(misspelt.decodeSettings.failOn == .warning)
        #expect(load(["[decode]\nfail-on = 1\n"]).errors.map(\.description) == [
            "10-decode.toml:2: [decode] fail-on must be one of none, truncated, error, warning, not an integer"
        ])
        #expect(load(["[decode]\nfail_on = \"none\"\n"]).errors.map(\.description) == [
            "10-decode.toml:2: unknown key 'fail_on' in [decode] (did you mean 'fail-on'?); known keys: fail-on"
        ])
        #expect(load(["decode = \"none\"\n"]).errors.first?.message.contains("'decode' must be a table") == true)
    }
}
