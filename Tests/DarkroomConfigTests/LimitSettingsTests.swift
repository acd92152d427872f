import DarkroomConfig
import DarkroomCore
import Testing

// MARK: - [limits]

@Suite("[limits] memory, max-pixels, max-input-size and queue-timeout are read over the files in order, with file:line errors")
struct LimitSettingsTests {
    func load(_ texts: [String]) -> Configuration {
        ConfigLoader.load(
            sources: texts.enumerated().map { ConfigSource(name: "\($0.offset + 10)-limits.toml", text: $0.element) }, filters: [:])
    }

    @Test("without [limits] nothing is set: the engine's defaults hold")
    func defaults() {
        let limits = load([""]).limitSettings
        #expect(limits == LimitSettings())
        #expect(limits.memory == nil && limits.maxPixels == nil && limits.maxInputSize == nil && limits.queueTimeout == nil)
    }

    @Test("sizes and durations are read as text or as numbers, each where it was set")
    func values() {
        let configuration = load([
            """
            [limits]
            memory = "1GB"
            max-pixels = 50_000_000
            max-input-size = 10485760
            queue-timeout = "1.5s"
            """
        ])
        #expect(configuration.diagnostics.isEmpty)
        let limits = configuration.limitSettings
        #expect(limits.memory == 1 << 30)
        #expect(limits.maxPixels == 50_000_000)
        #expect(limits.maxInputSize == 10 << 20)
        #expect(limits.queueTimeout == 1.5)
        #expect(limits.locations["queue-timeout"]?.line == 5)
        let numbers = load(["[limits]\nqueue-timeout = 20\nmemory = \"512 MiB\"\n"]).limitSettings
        #expect(numbers.queueTimeout == 20 && numbers.memory == 512 << 20)
    }

    @Test("a later file's key wins; the keys it leaves out keep the earlier file's")
    func laterFileWins() {
        let limits = load(["[limits]\nmemory = \"1GB\"\nmax-pixels = 1000\n", "[limits]\nmemory = \"2GB\"\n"]).limitSettings
        #expect(limits.memory == 2 << 30)
        #expect(limits.maxPixels == 1000)
        #expect(limits.locations["memory"]?.file == "11-limits.toml")
        #expect(limits.locations["max-pixels"]?.file == "10-limits.toml")
    }

    @Test("wrong values, wrong types, an unknown key and a non-table are errors at their line, and set nothing")
    func errors() {
        let wrong = load([
            """
            [limits]
            memory = "lots"
            max-pixels = -5
            max-input-size = 0
            queue-timeout = "2 days"
            """
        ])
        #expect(wrong.errors.map(\.description) == [
            "10-limits.toml:2: [limits] memory must be a size above zero such as \"1GB\", \"512MB\" or a number of bytes, not 'lots'",
            "10-limits.toml:3: [limits] max-pixels must be a number of pixels above zero such as 100_000_000, not -5",
            "10-limits.toml:4: [limits] max-input-size must be a size above zero such as \"1GB\", \"512MB\" or a number of bytes, not 0",
            "10-limits.toml:5: [limits] queue-timeout must be a duration above zero and at most a day, such as \"10s\", \"500ms\" or a number of seconds, not '2 days'",
        ])
        #expect(wrong.limitSettings == LimitSettings())
        #expect(load(["[limits]\nmax-pixels = true\n"]).errors.first?.message.hasSuffix("not a boolean") == true)
        #expect(load(["[limits]\nmemmory = \"1GB\"\n"]).errors.map(\.description) == [
            "10-limits.toml:2: unknown key 'memmory' in [limits] (did you mean 'memory'?); known keys: memory, max-pixels, max-input-size, max-frames, queue-timeout"
        ])
        #expect(load(["limits = 5\n"]).errors.first?.message.contains("'limits' must be a table") == true)
        #expect(load(["[limit]\nmemory = \"1GB\"\n"]).errors.first?.message.contains("did you mean 'limits'?") == true)
    }
}
