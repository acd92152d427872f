import ArgumentParser
import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomCore
import FoundationEssentials

// MARK: - darkroom list

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the filters with their arguments, and the variants with their identifiers.",
        discussion: """
            Variants show where they were defined (file:line), which earlier definitions they \
            override, and which other variants share their identifier (and so one cache entry \
            and one computation). --config defaults to $DARKROOM_CONFIG, else ./filters.d, else \
            the embedded default. A configuration folder that does not exist (or is not a \
            folder) lists nothing and exits 78 (EX_CONFIG), as 'darkroom check' does; errors inside the files \
            are printed on stderr and leave out the variants they affect.
            """
    )

    @Option(help: "The filters.d folder (default: $DARKROOM_CONFIG, else ./filters.d, else the embedded default).")
    var config: String?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let (location, configuration) = CommandRegistry.configuration(config)
        if case let .directory(path) = location, !Self.isFolder(path) {
            // A typo in --config must not look like an empty configuration to a script.
            for diagnostic in configuration.diagnostics {
                StandardError.write(diagnostic.description + "\n")
            }
            throw ExitStatus.configuration.exitCode
        }
        let listing = Listing(registry: CommandRegistry.shared, configuration: configuration, location: location)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(listing), as: UTF8.self))
        } else {
            print(listing.text, terminator: "")
        }
        for diagnostic in configuration.diagnostics {
            StandardError.write(diagnostic.description + "\n")
        }
    }

    /// Whether `path` names an existing folder.
    static func isFolder(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }
}

// MARK: - Listing

/// What `darkroom list` shows, derived from the filter declarations and the configuration.
struct Listing: Encodable {
    struct Argument: Encodable {
        var name: String
        var type: String
        var allowed: String
        var minimum: Double?
        var maximum: Double?
        var choices: [String]?
        var `default`: String?
        var required: Bool
        var unit: String?
        var summary: String
    }

    struct Filter: Encodable {
        var name: String
        var summary: String
        var origin: String
        var idempotent: Bool
        var identifierExample: String
        var arguments: [Argument]
    }

    struct Variant: Encodable {
        var name: String
        var description: String?
        var identifier: String
        var base: String?
        var definedAt: String
        var overrides: [String]
        var sharesIdentifierWith: [String]
    }

    struct CacheKindEntry: Encodable {
        var name: String
        var summary: String
        var origin: String
        var keys: [String]
    }

    struct Cache: Encodable {
        var name: String
        var type: String
        var definedAt: String
    }

    var config: String
    var filters: [Filter]
    var variants: [Variant]
    /// The registered cache kinds, and the layers the configuration builds from them.
    var cacheKinds: [CacheKindEntry]
    var caches: [Cache]
    /// `[decode]`: the fail-on level and where it was set (`nil`: the default).
    var decode: Decode

    struct Decode: Encodable {
        var failOn: String
        var definedAt: String?
    }

    /// `[limits]`: each key's value as written in the file, or the default, and where it was set.
    var limits: [Limit]

    struct Limit: Encodable {
        var key: String
        var value: String
        var definedAt: String?
    }

    init(registry: Registry, configuration: Configuration, location: ConfigLocation) {
        config = location.description
        filters = registry.filters.keys.sorted().map { name in
            let schema = registry.filters[name]!
            return Filter(
                name: name, summary: schema.summary, origin: registry.filterOrigins[name] ?? "app",
                idempotent: schema.isIdempotent, identifierExample: Self.example(schema),
                arguments: schema.arguments.map(Self.argument))
        }
        cacheKinds = registry.cacheKinds.keys.sorted().map { name in
            let kind = registry.cacheKinds[name]!
            return CacheKindEntry(name: name, summary: kind.summary, origin: kind.origin, keys: kind.keys + CacheSettings.commonKeys)
        }
        caches = configuration.cacheSettings.tables.map {
            Cache(name: $0.name, type: $0.kind, definedAt: $0.node.location.description)
        }
        decode = Decode(
            failOn: configuration.decodeSettings.failOn.rawValue, definedAt: configuration.decodeSettings.failOnLocation?.description)
        limits = Self.limits(configuration.limitSettings)
        let sharing = configuration.variantNamesByIdentifier
        variants = configuration.variants.map { variant in
            Variant(
                name: variant.name, description: variant.description, identifier: variant.identifier,
                base: variant.base, definedAt: variant.definedAt.description,
                overrides: variant.overrides.map(\.description),
                sharesIdentifierWith: (sharing[variant.identifier] ?? []).filter { $0 != variant.name })
        }
    }

    /// The five `[limits]` keys with their values (whole mebibytes, pixels, seconds) or defaults.
    static func limits(_ settings: LimitSettings) -> [Limit] {
        func megabytes(_ bytes: Int) -> String { bytes % (1 << 20) == 0 ? "\(bytes >> 20)MB" : "\(bytes)" }
        func seconds(_ value: Double) -> String { value == value.rounded() ? "\(Int(value))s" : "\(value)s" }
        let values: [(String, String)] = [
            ("memory", megabytes(settings.memory ?? ImagePipeline.Configuration.defaultMemoryBudget)),
            ("max-pixels", String(settings.maxPixels ?? DecodeLimits.defaultMaxPixels)),
            ("max-input-size", megabytes(settings.maxInputSize ?? DecodeLimits.defaultMaxInputBytes)),
            ("max-frames", String(settings.maxFrames ?? DecodeLimits.defaultMaxFrames)),
            ("queue-timeout", settings.queueTimeout.map(seconds) ?? "none (darkroom-server: 30s)"),
        ]
        return values.map { Limit(key: $0.0, value: $0.1, definedAt: settings.locations[$0.0]?.description) }
    }

    // MARK: - Deriving from declarations

    static func argument(_ a: FilterArgument) -> Argument {
        var result = Argument(
            name: a.name, type: "", allowed: a.expectation, default: a.defaultValue?.canonicalText,
            required: a.isRequired, unit: a.unit, summary: a.summary)
        switch a.kind {
        case let .integer(range):
            result.type = "integer"; result.minimum = Double(range.lowerBound); result.maximum = Double(range.upperBound)
        case let .number(range):
            result.type = "number"; result.minimum = range.lowerBound; result.maximum = range.upperBound
        case .boolean: result.type = "boolean"
        case .color: result.type = "color"
        case let .choice(words): result.type = "choice"; result.choices = words
        case .text: result.type = "text"
        }
        return result
    }

    /// The identifier of the filter with its defaults, or the argument list for required ones.
    static func example(_ schema: FilterSchema) -> String {
        guard !schema.arguments.isEmpty else { return schema.name }
        let parts = schema.arguments.sorted { $0.name < $1.name }.map { "\($0.name)=\($0.defaultValue?.canonicalText ?? "…")" }
        return "\(schema.name)(\(parts.joined(separator: ",")))"
    }

    // MARK: - Text

    var text: String {
        var out = "Filters\n"
        for filter in filters {
            out += "  \(filter.name)  — \(filter.summary)  [\(filter.origin)\(filter.idempotent ? ", idempotent" : "")]\n"
            for a in filter.arguments {
                let fallback = a.default.map { "default \($0)" } ?? "required"
                out += "      \(a.name): \(a.allowed); \(fallback) — \(a.summary)\n"
            }
        }
        out += "  Numbers are plain decimals. A filter whose output would exceed [limits] max-pixels "
            + "(at most \(FilterOutputLimit.maxPixels / 1_000_000) megapixels) refuses the image, whatever its arguments.\n"
        out += "\nVariants (from \(config))\n"
        for v in variants {
            out += "  \(v.name)\(v.description.map { "  — \($0)" } ?? "")\n"
            out += "      identifier: \(v.identifier)\n"
            out += "      defined at: \(v.definedAt)\(v.base.map { ", base: \($0)" } ?? "")\n"
            for o in v.overrides { out += "      overrides:  \(o)\n" }
            if !v.sharesIdentifierWith.isEmpty {
                out += "      same output as: \(v.sharesIdentifierWith.joined(separator: ", ")) (one cache entry, one computation)\n"
            }
        }
        out += "\nCache kinds ([caches.NAME] type = …)\n"
        for kind in cacheKinds {
            out += "  \(kind.name)  — \(kind.summary)  [\(kind.origin)]\n"
            out += "      keys: \(kind.keys.joined(separator: ", "))\n"
        }
        out += "\nCaches (looked up in this order)\n"
        for cache in caches {
            out += "  \(cache.name)  type \(cache.type)  (\(cache.definedAt))\n"
        }
        out += "\nDecoding ([decode])\n"
        out += "  fail-on = \(decode.failOn)  (\(decode.definedAt ?? "default"))\n"
        out += "\nLimits ([limits])\n"
        for limit in limits { out += "  \(limit.key) = \(limit.value)  (\(limit.definedAt ?? "default"))\n" }
        return out
    }
}
