import DarkroomCore

// MARK: - Configuration

/// Everything read from a `filters.d/` directory: the variants that resolved, every problem
/// found, the files read, and the sections reserved for other components.
///
/// A configuration is always returned, even a broken one: a variant with errors is left out
/// (and listed in ``unresolvedVariants``) while the others resolve. Check ``hasErrors``
/// before serving from it.
///
/// ```swift
/// let configuration = ConfigLoader.load(directory: "filters.d", filters: registry.filterSchemas)
/// configuration.diagnostics.forEach { print($0) }   // file:line: message
/// guard !configuration.hasErrors else { exit(1) }
/// let avatar = configuration.variant(named: "avatar")
/// ```
public struct Configuration: Sendable {
    /// The variants that resolved, sorted by name.
    public let variants: [ResolvedVariant]
    /// Every error and warning, in reading order (file, then line).
    public let diagnostics: [Diagnostic]
    /// The files that were read, in the order they were read.
    public let files: [String]
    /// Variants that are defined but were left out because of errors (their own, their
    /// base's, a missing base or a cycle), sorted.
    public let unresolvedVariants: [String]
    /// For each of ``unresolvedVariants``, the error that left it out: its own first error, or
    /// its base's, the missing base, the cycle or the too-deep chain.
    public let unresolvedReasons: [String: Diagnostic]
    /// Reserved top-level sections (`caches`, `sources`): section → entry name → value. A later
    /// file's `[caches.NAME]` replaces an earlier one entirely, as for variants.
    public let reservedSections: [String: [String: ConfigNode]]
    /// The `[decode]` settings (defaults where not given).
    public let decodeSettings: DecodeSettings
    /// The `[limits]` settings (`nil` for each limit not given).
    public let limitSettings: LimitSettings
    /// The `[caches.*]` settings (defaults where not given).
    public let cacheSettings: CacheSettings
    /// The `[sources.http]` settings (defaults where not given).
    public let httpSourceSettings: HTTPSourceSettings
    /// Every `[sources.*]` table in the order written, with its kind (`type`, else its name):
    /// the registry builds the kinds other than `http` (``SourceTableSpec``).
    public let sourceTables: [SourceTableSpec]
    /// The errors of the `[caches.*]` sections (also in ``diagnostics``). Where a value was
    /// wrong, ``cacheSettings`` holds the default instead: check this before opening caches.
    public let cacheErrors: [Diagnostic]
    /// The errors of the `[sources.*]` sections (also in ``diagnostics``). Where a value was
    /// wrong, ``httpSourceSettings`` holds the default instead: check this before fetching.
    public let sourceErrors: [Diagnostic]

    /// Creates a configuration from its parts, as the loader does; the variants are sorted by
    /// name, and every part left out is empty or the defaults.
    public init(
        variants: [ResolvedVariant], diagnostics: [Diagnostic], files: [String], unresolvedVariants: [String] = [],
        unresolvedReasons: [String: Diagnostic] = [:], reservedSections: [String: [String: ConfigNode]] = [:],
        decodeSettings: DecodeSettings = DecodeSettings(), limitSettings: LimitSettings = LimitSettings(), cacheSettings: CacheSettings = CacheSettings(), httpSourceSettings: HTTPSourceSettings = HTTPSourceSettings(),
        sourceTables: [SourceTableSpec] = [], cacheErrors: [Diagnostic] = [], sourceErrors: [Diagnostic] = []
    ) {
        self.variants = variants.sorted { $0.name < $1.name }
        self.diagnostics = diagnostics
        self.files = files
        self.unresolvedVariants = unresolvedVariants
        self.unresolvedReasons = unresolvedReasons
        self.reservedSections = reservedSections
        self.decodeSettings = decodeSettings
        self.limitSettings = limitSettings
        self.cacheSettings = cacheSettings
        self.httpSourceSettings = httpSourceSettings
        self.sourceTables = sourceTables
        self.cacheErrors = cacheErrors
        self.sourceErrors = sourceErrors
    }

    /// A configuration with nothing in it.
    public static let empty = Configuration(variants: [], diagnostics: [], files: [])

    // MARK: - Lookup

    /// The resolved variant called `name`, if any.
    public func variant(named name: String) -> ResolvedVariant? {
        variants.first { $0.name == name }
    }

    /// The names of the resolved variants, sorted.
    public var variantNames: [String] { variants.map(\.name) }

    /// `[caches.NAME]` sections by name.
    public var caches: [String: ConfigNode] { reservedSections["caches"] ?? [:] }

    /// `[sources.NAME]` sections by name.
    public var sources: [String: ConfigNode] { reservedSections["sources"] ?? [:] }

    // MARK: - Diagnostics

    /// The error ``diagnostics``, in reading order.
    public var errors: [Diagnostic] { diagnostics.filter(\.isError) }
    /// The warning ``diagnostics``, in reading order.
    public var warnings: [Diagnostic] { diagnostics.filter { !$0.isError } }
    /// Whether any diagnostic is an error: something was left out, so do not serve from it.
    public var hasErrors: Bool { diagnostics.contains(where: \.isError) }

    // MARK: - Sharing work

    /// Variant names grouped by ``ResolvedVariant/identifier``, each group sorted. Variants in
    /// one group have the same flattened chain and encoder settings: one cache entry and one
    /// computation serve them all.
    ///
    /// ```swift
    /// configuration.variantNamesByIdentifier["grayscale>png(compression=6)"] // ["bw", "mono"]
    /// ```
    public var variantNamesByIdentifier: [String: [String]] {
        Dictionary(grouping: variants, by: \.identifier).mapValues { $0.map(\.name).sorted() }
    }

    /// The groups of two or more variants that share an identifier, sorted by first name.
    public var variantsSharingIdentifiers: [[String]] {
        variantNamesByIdentifier.values.filter { $0.count > 1 }.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
