import ArgumentParser
import Darkroom
import DarkroomTools
import DarkroomCache
import DarkroomConfig
import DarkroomCore
import DarkroomCurl
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

// MARK: - darkroom cache

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect and manage the caches configured in filters.d ([caches.*]).",
        discussion: """
            The disk cache lives in $DARKROOM_CACHE_DIR, else [caches.disk] path, else \
            ~/.cache/darkroom (when [caches.disk] is present). The memory cache belongs to one \
            process; this command reports its settings.
            """,
        subcommands: [CacheStatsCommand.self, CachePurgeCommand.self, CacheSweepCommand.self]
    )
}

/// Options shared by the cache subcommands.
struct CacheOptions: ParsableArguments {
    @Option(help: "The filters.d folder (default: $DARKROOM_CONFIG, else ./filters.d, else the embedded default).")
    var config: String?

    /// The configured layers, with the standard memory and disk layers picked out (the first of each).
    func caches() throws -> ConfiguredCaches {
        let (_, configuration) = CommandRegistry.configuration(config)
        do {
            let layers = try CommandRegistry.caches(for: configuration, noCache: false)
            return ConfiguredCaches(
                layers: layers, memory: layers.first(EncodedImageMemoryCache.self) ?? EncodedImageMemoryCache(),
                disk: layers.first(DiskCache.self))
        } catch {
            throw CommandFailure.exit(subject: "cache", error)
        }
    }
}

/// The layers a `cache` subcommand works on.
struct ConfiguredCaches {
    var layers: CacheLayers
    var memory: EncodedImageMemoryCache
    var disk: DiskCache?

    /// Layers other than the standard memory and disk ones, which only the generic protocol reaches.
    var others: [CacheLayer] {
        layers.layers.filter { !($0.cache is EncodedImageMemoryCache) && !($0.cache is DiskCache) }
    }
}

// MARK: - stats

struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Entries, bytes, hits and misses per cache layer.")

    @OptionGroup var options: CacheOptions

    @Flag(help: "Print one JSON object ({\"memory\": {…}, \"disk\": {\"entries\": …}}).")
    var json = false

    func run() throws {
        let caches = try options.caches()
        let memory = caches.memory.statistics
        if json {
            var stats = CacheStatistics(memory: .init(
                entries: memory.entries, bytes: memory.bytes, hits: memory.hits, misses: memory.misses,
                capacity: caches.memory.memoryCapacity, afterPurge: caches.memory.preferredMemoryUsageAfterPurge))
            if let disk = caches.disk {
                disk.refresh()
                let s = disk.statistics
                stats.disk = .init(
                    path: disk.directory, entries: s.entries, bytes: s.bytes, hits: s.hits, misses: s.misses,
                    limit: disk.limit)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(stats), as: UTF8.self))
            return
        }
        if let disk = caches.disk { disk.refresh() }
        print("memory: \(memory.entries) entries, \(memory.bytes) bytes, \(memory.hits) hits, \(memory.misses) misses "
            + "(this process; capacity \(caches.memory.memoryCapacity) bytes)")
        if let disk = caches.disk {
            let s = disk.statistics
            print("disk:   \(s.entries) entries, \(s.bytes) bytes, \(s.hits) hits, \(s.misses) misses (\(disk.directory))")
        } else {
            print("disk:   not configured (add [caches.disk] to filters.d or set $DARKROOM_CACHE_DIR)")
        }
        for layer in caches.others {
            print("\(layer.name): a \(layer.kind) layer (its statistics are in the server's metrics)")
        }
    }
}

// MARK: - purge

struct CachePurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove every render of one source (--source), or every cached render (--all).",
        discussion: """
            A file source is named by its path (as given to render or batch); a URL in any spelling \
            of it. Without --source the whole cache goes, which may be shared by every process of \
            the user or, with a shared layer, by other machines: on a terminal darkroom asks first; \
            otherwise --all must say so.
            """)

    @OptionGroup var options: CacheOptions

    @Option(help: "Only this source's renders (every variant).")
    var source: String?

    @Flag(help: "Every cached render of every source (asked for on a terminal when neither option is given).")
    var all = false

    func validate() throws {
        if let source, source.allSatisfy(\.isWhitespace) {
            throw ValidationError("--source must name a file or a URL (it is empty)")
        }
        if source != nil, all {
            throw ValidationError("--source and --all are exclusive: one source's renders, or every render")
        }
    }

    func run() throws {
        let caches = try options.caches()
        guard caches.disk != nil || !caches.others.isEmpty else {
            print("disk cache not configured; nothing to purge")
            return
        }
        let layers = caches.layers
        if let source {
            let key = try purgeKey(source)
            let results = try BlockingWait.run { await layers.removeAll(forSource: key) }
            var removed = 0
            for (layer, result) in results {
                switch result {
                case let .success(count): removed += count
                case let .failure(error): StandardError.write("darkroom: warning: [caches.\(layer)] not purged: \(error)\n")
                }
            }
            print("purged \(removed) entries of \(key)")
        } else {
            let before = caches.disk?.statistics.entries ?? 0
            guard all || confirmed(layers: layers.layers.map(\.name), entries: before) else {
                throw CommandFailure.exit(subject: "cache purge", DarkroomError.invalidArgument(
                    name: "options", value: "no --source",
                    expected: "--all to remove every cached render of every source (asked for on a terminal), "
                        + "or --source SOURCE for one source"))
            }
            for layer in layers.layers {
                do {
                    try BlockingWait.run { try await layer.cache.removeAll() }
                } catch {
                    StandardError.write("darkroom: warning: [caches.\(layer.name)] not purged: \(error)\n")
                }
            }
            print("purged \(before) entries")
        }
    }

    /// Asks on a terminal whether every render may go; `false` (nothing asked) when standard
    /// input or standard error is not a terminal, or the answer is not yes.
    private func confirmed(layers: [String], entries: Int) -> Bool {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return false }
        let names = layers.map { "[caches.\($0)]" }.joined(separator: ", ")
        StandardError.write("Remove every cached render from \(names) (\(entries) on disk)? [y/N] ")
        guard let answer = readLine()?.filter({ !$0.isWhitespace }).lowercased() else { return false }
        return answer == "y" || answer == "yes"
    }

    /// The key renders of `source` are cached under: an http(s) URL in the HTTP source's
    /// normalised form (as `render` and `batch` key it), a path absolute and symlink-free.
    private func purgeKey(_ source: String) throws -> String {
        guard BatchInput.isURL(source) else {
            return source.contains("://") ? source : SourceReference.absolutePath(source)
        }
        do {
            return try HTTPSource().key(for: source)
        } catch {
            throw CommandFailure.exit(subject: source, error)
        }
    }
}

// MARK: - sweep

struct CacheSweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep", abstract: "Remove expired entries and least-recently-used ones past the size limit.")

    @OptionGroup var options: CacheOptions

    func run() throws {
        let caches = try options.caches()
        guard let disk = caches.disk else {
            print("disk cache not configured; nothing to sweep")
            return
        }
        let r = disk.sweep()
        print("swept: \(r.expiredEntries) expired, \(r.evictedEntries) evicted, \(r.removedBytes) bytes freed, "
            + "\(r.removedTemporaryFiles) stale temporary files; \(r.remainingEntries) entries, \(r.remainingBytes) bytes left")
    }
}

// MARK: - CacheStatistics

/// What `darkroom cache stats --json` prints: every key always present, `null` for a layer or
/// limit that is not configured.
struct CacheStatistics: Encodable {
    struct Memory: Encodable {
        var entries: Int, bytes: Int, hits: Int, misses: Int, capacity: Int, afterPurge: Int
    }

    struct Disk: Encodable {
        var path: String, entries: Int, bytes: Int, hits: Int, misses: Int, limit: Int?

        private enum CodingKeys: String, CodingKey { case path, entries, bytes, hits, misses, limit }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(entries, forKey: .entries)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(hits, forKey: .hits)
            try container.encode(misses, forKey: .misses)
            try container.encode(limit, forKey: .limit)  // null when unlimited
        }
    }

    var memory: Memory
    var disk: Disk?

    private enum CodingKeys: String, CodingKey { case memory, disk }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(memory, forKey: .memory)
        try container.encode(disk, forKey: .disk)  // null when no disk cache is configured
    }
}
