import DarkroomCore

// MARK: - ConfigMerger

/// Reads parsed files one after another, in order: checks their top-level keys, validates each
/// variant definition, lets a later definition of a name replace an earlier one entirely
/// (remembering where the earlier ones were), and keeps the reserved sections.
struct ConfigMerger {
    /// The top-level sections a file may have.
    static let topLevelKeys = ["variants", "caches", "sources"]
    /// Sections kept for later components, not interpreted here.
    static let reservedKeys = ["caches", "sources"]

    let parser: VariantParser
    private(set) var definitions: [String: VariantDefinition] = [:]
    private(set) var reserved: [String: [String: ConfigNode]] = [:]
    private(set) var diagnostics: [Diagnostic] = []

    init(catalogue: [String: FilterSchema], writableFormats: Set<ImageFormat>? = nil) {
        parser = VariantParser(catalogue: catalogue, writableFormats: writableFormats)
    }

    mutating func add(_ root: ConfigNode) {
        for (key, section) in root.orderedMembers {
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
            default:
                let hint = NearestName.suggestion(for: key, among: Self.topLevelKeys).map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.append(.error(
                    at: section.location,
                    "unknown top-level key '\(key)'\(hint); expected one of \(Self.topLevelKeys.joined(separator: ", "))"))
            }
        }
    }
}
