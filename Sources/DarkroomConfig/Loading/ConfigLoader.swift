#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import FoundationEssentials
#endif
import DarkroomCore

// MARK: - ConfigLoader

/// Reads a `filters.d/` directory (conf.d style) into a ``Configuration``.
///
/// ## Files
/// Every `*.toml` file directly in the directory is read, in byte-wise order of its name
/// (`10-base.toml` before `20-avatars.toml`); other files, subdirectories and hidden files
/// (names starting with `.`) are ignored. A missing directory is an error diagnostic; an empty
/// one is a valid, empty configuration.
///
/// ## Format
/// ```toml
/// # filters.d/20-avatars.toml
/// [variants.avatar]
/// description = "128 px round avatar"          # optional
/// filters = [
///   { filter = "aspect-fill", width = 128, height = 128 },
///   "circle",                                  # or a spec string: "blur(sigma=2)"
/// ]
/// format = "png"   # optional: format, quality, progressive, compression, lossless, speed, strip, optimize
///
/// [variants.avatar-small]
/// base = "avatar"  # avatar's chain, then these filters; encoder settings inherited unless set
/// filters = [ { filter = "scale", width = 64, height = 64 } ]
///
/// [[variants.sepia.filters]]                   # the table-array form works too
/// filter = "grayscale"
/// ```
/// - `filters`: an array whose elements are tables with a `filter` key (the other keys are the
///   filter's arguments) or spec strings in identifier syntax. Arguments are validated against
///   the filter's `FilterSchema`.
/// - `format`: `jpeg`, `png`, `gif`, `webp`, `avif`, `heif`, `tiff`, `bmp`, `tga` (or an
///   alias such as `jpg`), or `auto`. Without a format (or with `auto`) the output has the
///   source's format, chosen at render time (``VariantEncoding``).
/// - `quality` 1…100, `progressive` and `optimize` (JPEG; `optimize = false` skips the optimal
///   Huffman tables, as libvips does), `compression` 0…9 (PNG), `lossless` (WebP),
///   `speed` 0…10 (AVIF), `strip` (default `true`; `false` keeps EXIF, XMP and a still-valid
///   ICC profile in JPEG, PNG and WebP output). A setting that does not apply to an explicit
///   format is a warning.
/// - `base`: another variant, in any file. The base's flattened chain comes first; unset
///   encoder settings are inherited; `description` is not. Bases resolve after all files are read.
/// - A later file's `[variants.X]` replaces an earlier `X` entirely (not an error; the earlier
///   locations are in ``ResolvedVariant/overrides``).
/// - `[caches.NAME]` and `[sources.NAME]` are reserved for the cache and source components and
///   kept as ``ConfigNode`` trees; any other top-level key is an error.
///
/// ## Errors
/// Loading never stops at the first problem: every ``Diagnostic`` has the file and line of the
/// offending element. A variant with errors is left out; the others still resolve.
///
/// ```swift
/// let configuration = ConfigLoader.load(directory: "filters.d", filters: catalogue)
/// for diagnostic in configuration.diagnostics { print(diagnostic) }
/// ```
public enum ConfigLoader {
    // MARK: - Directory

    /// Reads every `*.toml` file of `directory` in byte-wise name order.
    /// - Parameters:
    ///   - directory: the `filters.d/` folder; its `*.toml` files are read in name order.
    ///   - filters: the filter catalogue, by name (the registry's schemas).
    ///   - writableFormats: the formats some encoder writes (the registry's); a variant's
    ///     `format` naming another is an error at its line. `nil` accepts every known format.
    public static func load(
        directory: String, filters: [String: FilterSchema], writableFormats: Set<ImageFormat>? = nil
    ) -> Configuration {
        switch files(in: directory) {
        case let .failure(problem): return failure(problem.diagnostic)
        case let .success(files): return load(files: files, filters: filters, writableFormats: writableFormats)
        }
    }

    /// Reads `directory` over `defaults` (a built-in configuration): the defaults' texts first,
    /// then the folder's files, so a later `[variants.X]` or `[sources.X]` replaces an earlier
    /// one, as conf.d folders layer. Caches are one stack, layered in order: when the folder
    /// configures any `[caches.*]`, the defaults' caches are left out (a cluster's memory and
    /// memcached layers must not gain a local disk layer that a purge does not reach). When a
    /// file of the folder says `[defaults] include = false`, the folder is read alone. A
    /// folder that does not exist is an error, read without the defaults (a typo must not look
    /// like a configuration).
    ///
    /// ```swift
    /// let configuration = ConfigLoader.load(directory: "filters.d", over: builtIn, filters: catalogue)
    /// configuration.variant(named: "thumbnail")?.location   // built-in, unless filters.d redefines it
    /// ```
    public static func load(
        directory: String, over defaults: [ConfigSource], filters: [String: FilterSchema],
        writableFormats: Set<ImageFormat>? = nil
    ) -> Configuration {
        let files: [String]
        switch Self.files(in: directory) {
        case let .failure(problem): return failure(problem.diagnostic)
        case let .success(found): files = found
        }
        let (own, unreadable) = read(files)
        let parsed = parse(own)
        let roots = parsed.compactMap { try? $0.1.get() }
        if roots.contains(where: ConfigMerger.excludesDefaults) {
            return merge(parsed, filters: filters, writableFormats: writableFormats, preceding: unreadable)
        }
        let ownCaches = roots.contains { ConfigMerger.has("caches", in: $0) }
        return merge(
            parse(defaults) + parsed, filters: filters, writableFormats: writableFormats, preceding: unreadable,
            ignoringInDefaults: ownCaches ? ["caches"] : [], defaultCount: defaults.count)
    }

    /// The `*.toml` files of `directory` in reading order, or why it cannot be listed.
    private static func files(in directory: String) -> Result<[String], DiagnosticError> {
        let manager = FileManager.default
        var isDirectory = false
        guard manager.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            return .failure(DiagnosticError(.error(at: .wholeFile(directory), "configuration directory does not exist")))
        }
        guard isDirectory else {
            return .failure(DiagnosticError(.error(at: .wholeFile(directory), "configuration path is not a directory")))
        }
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: directory)
        } catch {
            return .failure(DiagnosticError(.error(at: .wholeFile(directory), "cannot list the configuration directory: \(error)")))
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return .success(names
            .filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { base + $0 }
            .filter { path in
                var isDirectory = false
                return manager.fileExists(atPath: path, isDirectory: &isDirectory) ? !isDirectory : true
            })
    }

    // MARK: - Files

    /// Reads `files` in the order given (a file that cannot be read is a diagnostic).
    public static func load(
        files: [String], filters: [String: FilterSchema], writableFormats: Set<ImageFormat>? = nil
    ) -> Configuration {
        let (sources, diagnostics) = read(files)
        return load(sources: sources, filters: filters, writableFormats: writableFormats, preceding: diagnostics)
    }

    /// The texts of `files`, and a diagnostic for each one that cannot be read or is not UTF-8.
    private static func read(_ files: [String]) -> (sources: [ConfigSource], diagnostics: [Diagnostic]) {
        var sources: [ConfigSource] = []
        var diagnostics: [Diagnostic] = []
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                diagnostics.append(.error(at: .wholeFile(path), "cannot read file"))
                continue
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                diagnostics.append(invalidUTF8(Array(data), path: path))
                continue
            }
            sources.append(ConfigSource(name: path, text: text))
        }
        return (sources, diagnostics)
    }

    // MARK: - Texts

    /// Reads in-memory texts in the order given; `name` is the file name used in diagnostics.
    public static func load(
        sources: [ConfigSource], filters: [String: FilterSchema], writableFormats: Set<ImageFormat>? = nil
    ) -> Configuration {
        load(sources: sources, filters: filters, writableFormats: writableFormats, preceding: [])
    }

    /// Reads `(name, text)` pairs in the order given.
    ///
    /// ```swift
    /// let configuration = ConfigLoader.load(
    ///     sources: [("10-a.toml", "[variants.bw]\nfilters = [\"grayscale\"]\n")], filters: catalogue)
    /// ```
    public static func load(sources: [(name: String, text: String)], filters: [String: FilterSchema]) -> Configuration {
        load(sources: sources.map { ConfigSource(name: $0.name, text: $0.text) }, filters: filters, writableFormats: nil, preceding: [])
    }

    private static func load(
        sources: [ConfigSource], filters: [String: FilterSchema], writableFormats: Set<ImageFormat>?,
        preceding: [Diagnostic]
    ) -> Configuration {
        merge(parse(sources), filters: filters, writableFormats: writableFormats, preceding: preceding)
    }

    /// Each source with its parsed tree, or the error that stopped its parse.
    private static func parse(_ sources: [ConfigSource]) -> [(ConfigSource, Result<ConfigNode, DiagnosticError>)] {
        sources.map { ($0, TOMLDocumentReader.read($0.text, file: $0.name)) }
    }

    /// Merges parsed files in order, then resolves the variants and reads the reserved sections.
    ///
    /// The first `defaultCount` files are defaults: read without their `ignoringInDefaults`
    /// sections, and their own diagnostics dropped. They were checked when they were built; a
    /// registry without one of their filters (a tool with its own modules) is not the folder's
    /// error. A default variant that does not resolve is left out, and refused with its reason
    /// (``Configuration/unresolvedReasons``) when it is asked for.
    private static func merge(
        _ parsed: [(ConfigSource, Result<ConfigNode, DiagnosticError>)], filters: [String: FilterSchema],
        writableFormats: Set<ImageFormat>?, preceding: [Diagnostic], ignoringInDefaults: Set<String> = [], defaultCount: Int = 0
    ) -> Configuration {
        let sources = parsed.map(\.0)
        var merger = ConfigMerger(catalogue: filters, writableFormats: writableFormats)
        var diagnostics = preceding
        for (index, (_, result)) in parsed.enumerated() {
            switch result {
            case let .success(root): merger.add(root, ignoring: index < defaultCount ? ignoringInDefaults : [])
            case let .failure(error): diagnostics.append(error.diagnostic)
            }
        }
        var resolver = VariantResolver(definitions: merger.definitions)
        resolver.resolveAll()
        diagnostics += merger.diagnostics + resolver.diagnostics
        let (cacheSettings, cacheDiagnostics) = CacheSettings.read(merger.reserved["caches"] ?? [:])
        diagnostics += cacheDiagnostics
        let (httpSourceSettings, httpDiagnostics) = HTTPSourceSettings.read(merger.reserved["sources"] ?? [:])
        let (sourceTables, tableDiagnostics) = SourceTableSpec.read(merger.reserved["sources"] ?? [:])
        let sourceDiagnostics = httpDiagnostics + tableDiagnostics
        diagnostics += sourceDiagnostics
        let order = Dictionary(sources.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let defaultFiles = Set(sources.prefix(defaultCount).map(\.name))
        func own(_ list: [Diagnostic]) -> [Diagnostic] { defaultFiles.isEmpty ? list : list.filter { !defaultFiles.contains($0.file) } }
        return Configuration(
            variants: Array(resolver.resolved.values),
            diagnostics: sortedByPlace(own(diagnostics), fileOrder: order),
            files: sources.map(\.name),
            unresolvedVariants: merger.definitions.keys.filter { resolver.resolved[$0] == nil }.sorted(),
            unresolvedReasons: resolver.reasons,
            reservedSections: merger.reserved, decodeSettings: merger.decodeSettings, limitSettings: merger.limitSettings, cacheSettings: cacheSettings,
            httpSourceSettings: httpSourceSettings, sourceTables: sourceTables, cacheErrors: sortedByPlace(own(cacheDiagnostics), fileOrder: order).filter(\.isError),
            sourceErrors: sortedByPlace(own(sourceDiagnostics), fileOrder: order).filter(\.isError))
    }

    // MARK: - Helpers

    /// "file is not valid UTF-8" at the line of the first byte that is not, naming the byte.
    private static func invalidUTF8(_ bytes: [UInt8], path: String) -> Diagnostic {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while case let .valid(scalar) = parser.parseScalar(from: &iterator) {
            offset += scalar.count
        }
        guard offset < bytes.count else { return .error(at: .wholeFile(path), "file is not valid UTF-8") }
        let line = bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let hex = String(bytes[offset], radix: 16, uppercase: true)
        return .error(at: SourceLocation(file: path, line: line), "file is not valid UTF-8 (byte 0x\(hex.count == 1 ? "0" : "")\(hex))")
    }

    private static func failure(_ diagnostic: Diagnostic) -> Configuration {
        Configuration(variants: [], diagnostics: [diagnostic], files: [])
    }

    /// Files in reading order (unread ones first), then line, then column; stable otherwise.
    private static func sortedByPlace(_ diagnostics: [Diagnostic], fileOrder: [String: Int]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let ka = (fileOrder[a.element.file] ?? -1, a.element.line, a.element.column ?? 0, a.offset)
            let kb = (fileOrder[b.element.file] ?? -1, b.element.line, b.element.column ?? 0, b.offset)
            return ka < kb
        }.map(\.element)
    }
}

// MARK: - ConfigSource

/// One configuration text and the name it is reported under.
public struct ConfigSource: Sendable, Hashable {
    /// The name diagnostics report the text under, usually the file's path.
    public var name: String
    /// The TOML text itself.
    public var text: String

    /// Creates a source of TOML `text` reported as `name`.
    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}
