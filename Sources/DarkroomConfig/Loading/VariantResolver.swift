import DarkroomCore

// MARK: - VariantResolver

/// Resolves `base` references once every file has been merged: flattens chains, inherits
/// encoder settings, and reports missing bases and cycles.
///
/// A variant is left out when its own definition has errors, its base is missing, it is part
/// of a cycle, its chain of bases holds more than ``maximumDepth`` variants, or its base was
/// left out. A cycle is reported once, starting from its alphabetically first member
/// (`cycle: a → b → a`), at that member's `base` line; a chain too deep is reported once, at
/// the `base` line that first goes past the limit.
///
/// Chains are walked in a loop, not by recursion, so no configuration can exhaust the stack.
struct VariantResolver {
    /// How many variants one chain of `base` references may hold (the variant included). Real
    /// configurations use a handful; each variant's filter chain holds all of its bases'
    /// filters, so without a limit a long chain costs quadratic time and memory.
    static let maximumDepth = 100

    let definitions: [String: VariantDefinition]
    private(set) var resolved: [String: ResolvedVariant] = [:]
    private(set) var failed: Set<String> = []
    private(set) var diagnostics: [Diagnostic] = []
    /// For each variant left out, the error that left it out: its own first error, or the one
    /// of the base, the missing base, the cycle or the depth that made it fail.
    private(set) var reasons: [String: Diagnostic] = [:]
    /// For each resolved variant, how many variants its chain holds.
    private var depths: [String: Int] = [:]
    /// The too-deep chain error, reported once.
    private var depthDiagnostic: Diagnostic?

    init(definitions: [String: VariantDefinition]) {
        self.definitions = definitions
    }

    mutating func resolveAll() {
        for name in definitions.keys.sorted() {
            resolve(name)
        }
    }

    // MARK: - One variant

    /// Resolves `name` and the unresolved bases below it: walks down the `base` references to a
    /// variant that is resolved, failed or has no base, then builds back up.
    private mutating func resolve(_ name: String) {
        var walk: [String] = []  // each based on the next
        var onWalk: Set<String> = []
        var next = name
        var bottom: ResolvedVariant?
        while true {
            if let done = resolved[next] {
                bottom = done
                break
            }
            guard !failed.contains(next), let definition = definitions[next], !definition.hasErrors else {
                reasons[next] = reasons[next] ?? definitions[next]?.firstError
                failed.insert(next)
                return fail(walk, because: reasons[next])
            }
            if onWalk.contains(next) {
                let members = walk[walk.firstIndex(of: next)!...]
                return fail(walk, because: reportCycle(Array(members)))
            }
            walk.append(next)
            onWalk.insert(next)
            guard let base = definition.base else { break }
            guard definitions[base.name] != nil else {
                // Never the variant itself (a case-only typo of its own name): that is a cycle.
                let others = definitions.keys.filter { $0 != next }.sorted()
                let hint = base.name.isEmpty ? "" : NearestName.suggestion(for: base.name, among: others)
                    .map { " (did you mean '\($0)'?)" } ?? ""
                let missing = Diagnostic.error(at: base.location, "base '\(base.name)' is not defined\(hint)")
                diagnostics.append(missing)
                return fail(walk, because: missing)
            }
            next = base.name
        }
        // Build from the bottom up, each on the one below.
        for (index, current) in walk.enumerated().reversed() {
            let depth = (bottom.flatMap { depths[$0.name] } ?? 0) + 1
            guard depth <= Self.maximumDepth else {
                reportDepth(of: current, basedOn: bottom?.name ?? "")
                return fail(walk[...index], because: depthDiagnostic)
            }
            let variant = build(definitions[current]!, on: bottom)
            resolved[current] = variant
            depths[current] = depth
            bottom = variant
        }
    }

    /// Marks `names` failed, each for `reason` unless it already has one.
    private mutating func fail(_ names: some Sequence<String>, because reason: Diagnostic?) {
        for name in names {
            failed.insert(name)
            if reasons[name] == nil { reasons[name] = reason }
        }
    }

    private mutating func reportDepth(of name: String, basedOn base: String) {
        guard depthDiagnostic == nil, let location = definitions[name]?.base?.location else { return }
        let diagnostic = Diagnostic.error(
            at: location,
            "variant '\(name)' is based on a chain of \(Self.maximumDepth) variants already ('\(base)' and its bases); "
                + "a chain may hold at most \(Self.maximumDepth)")
        depthDiagnostic = diagnostic
        diagnostics.append(diagnostic)
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
    private mutating func reportCycle(_ members: [String]) -> Diagnostic {
        let first = members.indices.min { members[$0] < members[$1] }!
        let rotated = Array(members[first...] + members[..<first])
        let text = (rotated + [rotated[0]]).joined(separator: " → ")
        let location = definitions[rotated[0]]?.base?.location ?? definitions[rotated[0]]!.location
        let diagnostic = Diagnostic.error(at: location, "cycle: \(text)")
        diagnostics.append(diagnostic)
        return diagnostic
    }
}
