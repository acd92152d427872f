import DarkroomConfig
import Testing

// MARK: - [caches.*]

@Suite("[caches.memory] and [caches.disk] are read with sizes, durations and file:line errors")
struct CacheSettingsTests {
    func load(_ text: String) -> Configuration {
        ConfigLoader.load(sources: [ConfigSource(name: "50-caches.toml", text: text)], filters: [:])
    }

    @Test("sizes and durations in every accepted form")
    func quantities() {
        #expect(ConfigQuantity.bytes("100MB") == 100 * 1024 * 1024)
        #expect(ConfigQuantity.bytes("1.5 GiB") == 1_610_612_736)
        #expect(ConfigQuantity.bytes("512") == 512)
        #expect(ConfigQuantity.bytes("12kb") == 12 * 1024)
        #expect(ConfigQuantity.bytes("lots") == nil)
        #expect(ConfigQuantity.bytes("-5MB") == nil)
        #expect(ConfigQuantity.seconds("30d") == 2_592_000)
        #expect(ConfigQuantity.seconds("90m") == 5_400)
        #expect(ConfigQuantity.seconds("3600") == 3_600)
        #expect(ConfigQuantity.seconds("soon") == nil)
    }

    @Test("defaults without a caches section: 100 MB / 60 MB memory, no disk section")
    func defaults() {
        let settings = load("").cacheSettings
        #expect(settings.memory.capacity == 100 * 1024 * 1024)
        #expect(settings.memory.afterPurge == 60 * 1024 * 1024)
        #expect(settings.disk == nil)
    }

    @Test("values are read")
    func values() {
        let configuration = load("""
            [caches.memory]
            capacity = "200MB"
            after-purge = "150MB"

            [caches.disk]
            path = "/tmp/dr"
            limit = "2GB"
            max-age = "7d"
            originals = true
            """)
        #expect(configuration.diagnostics.isEmpty)
        let s = configuration.cacheSettings
        #expect(s.memory.capacity == 200 * 1024 * 1024 && s.memory.afterPurge == 150 * 1024 * 1024)
        #expect(s.disk?.path == "/tmp/dr")
        #expect(s.disk?.limit == 2 * 1024 * 1024 * 1024)
        #expect(s.disk?.maxAge == 604_800)
        #expect(s.disk?.storesOriginals == true)
    }

    @Test("errors name the file, the line and what is wrong")
    func errors() {
        let configuration = load("""
            [caches.memory]
            capacity = "lots"
            after-purg = "1MB"

            [caches.disc]
            path = "x"

            [caches.disk]
            max-age = "soon"
            """)
        let lines = configuration.errors.map(\.description)
        #expect(lines.contains { $0.hasPrefix("50-caches.toml:2: ") && $0.contains("size") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("50-caches.toml:3: ") && $0.contains("did you mean 'after-purge'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("50-caches.toml:9: ") && $0.contains("duration") }, "\(lines)")
        // A table of a kind the loader does not know is a layer for the registry to check.
        #expect(configuration.cacheSettings.tables.map(\.name) == ["memory", "disc", "disk"])
        #expect(configuration.cacheSettings.tables.map(\.kind) == ["memory", "disc", "disk"])
    }

    @Test("after-purge above capacity is an error")
    func afterPurgeAboveCapacity() {
        let configuration = load("[caches.memory]\ncapacity = \"10MB\"\nafter-purge = \"20MB\"\n")
        #expect(configuration.errors.first?.description.hasPrefix("50-caches.toml:3: ") == true)
        // The settings stay usable (a memory cache traps on after-purge > capacity).
        #expect(configuration.cacheSettings.memory.afterPurge == 10 * 1024 * 1024)
    }

    @Test("a capacity below 60 MB alone is valid: after-purge defaults to 60 % of it")
    func smallCapacityAlone() {
        let configuration = load("[caches.memory]\ncapacity = \"10MB\"\n")
        #expect(configuration.diagnostics.isEmpty, "\(configuration.diagnostics)")
        #expect(configuration.cacheSettings.memory.afterPurge == 6 * 1024 * 1024)
        #expect(load("[caches.memory]\ncapacity = \"1GB\"\n").cacheSettings.memory.afterPurge == 60 * 1024 * 1024)
    }

    @Test("a wrong setting is listed in cacheErrors and leaves a usable default, never a pair the caches refuse")
    func wrongSettingsKeepDefaults() {
        let configuration = load("[caches.memory]\ncapacity = -1\n[caches.disk]\nlimit = \"100XB\"\nmax-age = -5\n")
        #expect(configuration.cacheErrors.map(\.line) == [2, 4, 5], "\(configuration.cacheErrors)")
        #expect(configuration.cacheSettings.memory == CacheSettings.Memory())
        #expect(configuration.cacheSettings.disk?.limit == nil && configuration.cacheSettings.disk?.maxAge == nil)
        #expect(load("[caches.memory]\ncapacity = \"100MB\"\n").cacheErrors.isEmpty)
    }

    @Test("a disk limit or max-age of 0 is an error at its line (leave the key out for none)")
    func zeroBounds() {
        let configuration = load("[caches.disk]\nlimit = \"0B\"\nmax-age = \"0s\"\n")
        let lines = configuration.cacheErrors.map(\.description)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("50-caches.toml:2: ") && $0.contains("limit must be more than 0") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("50-caches.toml:3: ") && $0.contains("max-age must be longer than 0") }, "\(lines)")
        #expect(configuration.cacheSettings.disk?.limit == nil && configuration.cacheSettings.disk?.maxAge == nil)
    }

    @Test("tables are layers in file order; type picks the kind (default: the name); originals and type are read for any kind")
    func tablesInFileOrder() {
        let configuration = load("""
            [caches.shared]
            type = "memcached"
            servers = ["127.0.0.1:11211"]

            [caches.local]
            type = "memory"
            capacity = "10MB"

            [caches.disk]
            originals = true
            """)
        #expect(configuration.cacheErrors.isEmpty, "\(configuration.cacheErrors)")
        let tables = configuration.cacheSettings.tables
        #expect(tables.map(\.name) == ["shared", "local", "disk"])
        #expect(tables.map(\.kind) == ["memcached", "memory", "disk"])
        #expect(tables.map(\.storesOriginals) == [false, false, true])
        #expect(configuration.cacheSettings.memory.capacity == 10 * 1024 * 1024)
        #expect(configuration.cacheSettings.disk?.storesOriginals == true)
        let wrongType = load("[caches.x]\ntype = 3\n")
        #expect(wrongType.cacheErrors.map(\.description) == ["50-caches.toml:2: [caches.x] type must be the name of a cache kind such as \"memory\" or \"disk\""])
    }
}
