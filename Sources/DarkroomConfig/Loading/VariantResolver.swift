import DarkroomCore

// MARK: - VariantResolver

/// Resolves `base` references once every file has been merged: flattens chains, inherits
/// encoder settings, and reports missing bases and cycles.
///
/// A variant is left out when its own definition has errors, its base is missing, it is part
/// of a cycle, or its base was left out. A cycle is reported once, starting from its
/// alphabetically first member (`cycle: a → b → a`), at that member's `base` line.
struct VariantResolver {
    let definitions: [String: VariantDefinition]
    private(set) var resolved: [String: ResolvedVariant] = [:]
    private(set) var failed: Set<String> = []
    private(set) var diagnostics: [Diagnostic] = []

    init(definitions: [String: VariantDefinition]) {
        self.definitions = definitions
    }

    mutating func resolveAll() {
        for name in definitions.keys.sorted() {
            _ = resolve(name, path: [name])
        }
    }

    // MARK: - One variant

    /// `path` is the chain of variants being resolved, ending with `name`.
    private mutating func resolve(_ name: String, path: [String]) -> ResolvedVariant? {
        if let done = resolved[name] { return done }
        if failed.contains(name) { return nil }
        guard let definition = definitions[name], !definition.hasErrors else {
            failed.insert(name)
            return nil
        }
        var baseVariant: ResolvedVariant?
        if let base = definition.base {
            if let start = path.firstIndex(of: base.name) {
                reportCycle(Array(path[start...]))
                failed.formUnion(path[start...])
                return nil
            }
            guard definitions[base.name] != nil else {
                let hint = NearestName.suggestion(for: base.name, among: definitions.keys.sorted())
                    .map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.append(.error(at: base.location, "base '\(base.name)' is not defined\(hint)"))
                failed.insert(name)
                return nil
            }
            guard let found = resolve(base.name, path: path + [base.name]) else {
                failed.insert(name)
                return nil
            }
            baseVariant = found
        }
        // A cycle further up may have claimed this variant while its base was resolved.
        if failed.contains(name) { return nil }
        let variant = build(definition, on: baseVariant)
        resolved[name] = variant
        return variant
    }

    private mutating func build(_ definition: VariantDefinition, on base: ResolvedVariant?) -> ResolvedVariant {
        let chain = (base?.chain ?? .empty).appending(FilterChain(definition.filters))
        var encoding = definition.encoding.inheriting(from: base?.encoding ?? VariantEncoding())
        if definition.formatIsAuto { encoding.format = nil }
        if let format = encoding.format {
            for key in definition.encoding.settingsIgnored(by: format) {
                diagnostics.append(.warning(
                    at: definition.settingLocations[key] ?? definition.location,
                    "'\(key)' does not apply to \(format.rawValue) output and is ignored (variant '\(definition.name)')"))
            }
        }
        return ResolvedVariant(
            name: definition.name, description: definition.description, chain: chain, encoding: encoding,
            base: definition.base?.name, definedAt: definition.location, overrides: definition.overrides)
    }

    // MARK: - Cycles

    /// Reports a cycle once: its members are marked failed right after, so no later walk
    /// reaches it again.
    private mutating func reportCycle(_ members: [String]) {
        let first = members.indices.min { members[$0] < members[$1] }!
        let rotated = Array(members[first...] + members[..<first])
        let text = (rotated + [rotated[0]]).joined(separator: " → ")
        let location = definitions[rotated[0]]?.base?.location ?? definitions[rotated[0]]!.location
        diagnostics.append(.error(at: location, "cycle: \(text)"))
    }
}
