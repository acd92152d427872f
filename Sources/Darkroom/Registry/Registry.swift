import DarkroomCore

// MARK: - Registry

/// The one place components are wired together: ordered lists of decoders and encoders
/// and sources, asked in order, filters by name and cache kinds by name; the first
/// component that accepts a job does it, and any component may decline.
///
/// Build it once, then keep it in a `let`: the value is immutable and `Sendable`, so
/// every task can share it.
///
/// ```swift
/// var registry = Registry()
/// registry.register(decoder: MyDecoder())      // asked before the standard ones
/// Registry.standard.registerCodecs(in: &registry)
/// let image = try registry.decode(bytes, options: DecodeOptions(sizeHint: PixelSize(width: 256, height: 256)))
/// ```
public struct Registry: Sendable {
    /// Decoders in the order they are asked.
    public private(set) var decoders: [any ImageDecoder] = []
    /// Encoders in the order they are asked.
    public private(set) var encoders: [any ImageEncoder] = []
    /// Filter declarations by name; a later registration of a name replaces the earlier one.
    public private(set) var filters: [String: FilterSchema] = [:]
    /// Who registered each filter name last (a module or app name), for `darkroom list`.
    public private(set) var filterOrigins: [String: String] = [:]
    /// Sources in the order they are asked.
    public internal(set) var sources: [any ImageSource] = []
    /// Cache kinds by name (`"memory"`, `"disk"`, `"memcached"`, …): what a `[caches.NAME]`
    /// table's `type` may name. A later registration of a name replaces the earlier one.
    public internal(set) var cacheKinds: [String: CacheKind] = [:]
    /// Source kinds by name (`"s3"`, …): what a `[sources.NAME]` table's `type` may name.
    public internal(set) var sourceKinds: [String: SourceKind] = [:]

    /// An empty registry.
    public init() {}

    // MARK: - Registering

    /// Appends a decoder; decoders registered earlier are asked first.
    public mutating func register(decoder: any ImageDecoder) {
        decoders.append(decoder)
    }

    /// Puts a decoder before every decoder registered so far (one that wraps them, as
    /// `IsolatedDecoder` does, must be asked first).
    public mutating func prepend(decoder: any ImageDecoder) {
        decoders.insert(decoder, at: 0)
    }

    /// Appends an encoder; encoders registered earlier are asked first.
    public mutating func register(encoder: any ImageEncoder) {
        encoders.append(encoder)
    }

    /// Appends a source; sources registered earlier are asked first.
    public mutating func register(source: any ImageSource) {
        sources.append(source)
    }

    /// Registers a filter declaration under its name, replacing any earlier one of that name.
    /// `origin` says who provides it (shown by `darkroom list`).
    public mutating func register(filter schema: FilterSchema, origin: String = "app") {
        filters[schema.name] = schema
        filterOrigins[schema.name] = origin
    }

    /// Registers a `DeclaredFilter` type.
    ///
    /// ```swift
    /// registry.register(filter: VignetteFilter.self, origin: "MyFilters")
    /// ```
    public mutating func register<F: DeclaredFilter>(filter type: F.Type, origin: String = "app") {
        register(filter: FilterSchema(type), origin: origin)
    }

    // MARK: - Choosing

    /// The first decoder that accepts `header`.
    /// - Throws: `DarkroomError/unsupportedFormat(_:reason:)` when none does.
    public func decoder(for header: ImageHeader, options: DecodeOptions) throws -> any ImageDecoder {
        guard let decoder = decoders.first(where: { $0.canDecode(header, options: options) }) else {
            throw DarkroomError.unsupportedFormat(
                header.format, reason: "no registered decoder reads it (decoders: \(names(decoders.map(\.name))))")
        }
        return decoder
    }

    /// The first source that accepts `location`.
    /// - Throws: `DarkroomError/noComponent(kind:detail:)` when none does.
    public func source(for location: String) throws -> any ImageSource {
        guard let source = sources.first(where: { $0.canLoad(location) }) else {
            throw DarkroomError.noComponent(
                kind: "source", detail: "'\(location)' (sources: \(names(sources.map(\.name))))")
        }
        return source
    }

    /// The first encoder that writes `format`.
    /// - Throws: `DarkroomError/unsupportedFormat(_:reason:)` when none does.
    public func encoder(for format: ImageFormat) throws -> any ImageEncoder {
        guard let encoder = encoders.first(where: { $0.format == format }) else {
            let writable = ImageFormat.allCases.filter { f in encoders.contains { $0.format == f } }
            throw DarkroomError.unsupportedFormat(
                format, reason: "no registered encoder writes it (writable: \(names(writable.map(\.rawValue))))")
        }
        return encoder
    }

    /// Builds a filter from its text form, e.g. `"aspect-fill(height=128,width=128)"`.
    /// - Throws: `DarkroomError` for an unknown filter (naming the nearest known one) or a bad argument.
    public func filter(parsing text: String) throws -> any ImageFilter {
        let spec = try FilterSpec(parsing: text)
        guard let schema = filters[spec.name] else {
            let hint = NearestName.suggestion(for: spec.name, among: Array(filters.keys)).map { " (did you mean '\($0)'?)" } ?? ""
            throw DarkroomError.invalidArgument(name: "filter", value: spec.name, expected: "a registered filter\(hint)")
        }
        return try schema.makeFilter(spec.pairs)
    }

    /// The formats some registered encoder writes.
    public var writableFormats: [ImageFormat] {
        ImageFormat.allCases.filter { f in encoders.contains { $0.format == f } }
    }

    private func names(_ list: [String]) -> String {
        list.isEmpty ? "none" : list.joined(separator: ", ")
    }
}
