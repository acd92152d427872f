import DarkroomCore

// MARK: - ConfigMerger

/// Reads parsed files one after another, in order: checks their top-level keys, validates each
/// variant definition, lets a later definition of a name replace an earlier one entirely
/// (remembering where the earlier ones were), and keeps the reserved sections.
struct ConfigMerger {
    /// The top-level sections a file may have.
    static let topLevelKeys = ["variants", "caches", "sources", "defaults", "decode", "limits"]
    /// Sections kept for later components, not interpreted here.
    static let reservedKeys = ["caches", "sources"]

    let parser: VariantParser
    private(set) var definitions: [String: VariantDefinition] = [:]
    private(set) var reserved: [String: [String: ConfigNode]] = [:]
    private(set) var diagnostics: [Diagnostic] = []
    /// `[decode]`, each file's keys over the earlier files'.
    private(set) var decodeSettings = DecodeSettings()
    /// `[limits]`, each file's keys over the earlier files'.
    private(set) var limitSettings = LimitSettings()

    init(catalogue: [String: FilterSchema], writableFormats: Set<ImageFormat>? = nil) {
        parser = VariantParser(catalogue: catalogue, writableFormats: writableFormats)
    }

    /// Adds one file; its top-level sections named in `ignoring` are skipped (the built-in
    /// caches when a folder configures its own stack).
    mutating func add(_ root: ConfigNode, ignoring: Set<String> = []) {
        for (key, section) in root.orderedMembers where !ignoring.contains(key) {
            switch key {
            case "variants":
                guard section.table != nil else {
                    diagnostics.append(.error(
                        at: section.location,
                        "'variants' must be a table of [variants.NAME] sections, not \(section.value.kindDescription)"))
                    continue
                }
                for (name, node) in section.orderedMembers {
                    let before = diagnostics.count
                    var definition = parser.parse(name: name, node: node, diagnostics: &diagnostics)
                    definition.firstError = diagnostics[before...].first(where: \.isError)
                    if let earlier = definitions[name] {
                        definition.overrides = earlier.overrides + [earlier.location]
                    }
                    definitions[name] = definition
                }
            case _ where Self.reservedKeys.contains(key):
                guard section.table != nil else {
                    diagnostics.append(.error(
                        at: section.location,
                        "'\(key)' must be a table of [\(key).NAME] sections, not \(section.value.kindDescription)"))
                    continue
                }
                for (name, node) in section.orderedMembers {
                    reserved[key, default: [:]][name] = node
                }
            case "defaults":
                checkDefaults(section)
            case "decode":
                decodeSettings.read(section, diagnostics: &diagnostics)
            case "limits":
                limitSettings.read(section, diagnostics: &diagnostics)
            default:
                let hint = NearestName.suggestion(for: key, among: Self.topLevelKeys).map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.append(.error(
                    at: section.location,
                    "unknown top-level key '\(key)'\(hint); expected one of \(Self.topLevelKeys.joined(separator: ", "))"))
            }
        }
    }

    // MARK: - [defaults]

    /// `[defaults]` holds one key, `include` (a boolean): whether a folder is read over the
    /// built-in defaults (``ConfigLoader/load(directory:over:filters:writableFormats:)``).
    private mutating func checkDefaults(_ section: ConfigNode) {
        guard section.table != nil else {
            diagnostics.append(.error(at: section.location, "'defaults' must be a table ([defaults]), not \(section.value.kindDescription)"))
            return
        }
        for (key, node) in section.orderedMembers {
            switch key {
            case "include":
                if case .boolean = node.value { continue }
                diagnostics.append(.error(at: node.location, "[defaults] include must be true or false, not \(node.value.kindDescription)"))
            default:
                let hint = NearestName.suggestion(for: key, among: ["include"]).map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.append(.error(at: node.location, "unknown key '\(key)' in [defaults]\(hint); known keys: include"))
            }
        }
    }

    /// Whether `root` (one file) has a top-level `key` section.
    static func has(_ key: String, in root: ConfigNode) -> Bool {
        root.orderedMembers.contains { $0.0 == key }
    }

    /// Whether `root` (one file) says `[defaults] include = false`.
    static func excludesDefaults(_ root: ConfigNode) -> Bool {
        guard let section = root.orderedMembers.first(where: { $0.0 == "defaults" })?.1,
            let include = section.orderedMembers.first(where: { $0.0 == "include" })?.1,
            case let .boolean(value) = include.value
        else { return false }
        return !value
    }
}

