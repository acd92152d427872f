import Darkroom
import DarkroomConfig
import DarkroomCore

// MARK: - Choosing what to render

/// Turns `--variant` names or `--filter` specs into render targets.
enum VariantSelection {
    /// The targets for named variants of the configuration.
    /// - Throws: a ``DarkroomError`` naming an unknown variant and the nearest known one,
    ///   pointing at `darkroom check` when the configuration has errors.
    static func targets(variants names: [String], configuration: Configuration, location: ConfigLocation) throws -> [RenderTarget] {
        var seen: Set<String> = []
        return try names.filter { seen.insert($0).inserted }.map { name in
            if let variant = configuration.variant(named: name) { return RenderTarget(variant: variant) }
            if configuration.unresolvedVariants.contains(name) || configuration.hasErrors {
                throw DarkroomError.invalidArgument(
                    name: "variant", value: name,
                    expected: "a valid variant; \(location) has errors (run darkroom check)")
            }
            let hint = NearestName.suggestion(for: name, among: configuration.variantNames).map { " (did you mean '\($0)'?)" } ?? ""
            throw DarkroomError.invalidArgument(
                name: "variant", value: name, expected: "a variant defined in \(location)\(hint)")
        }
    }

    /// One ad-hoc target from `--filter` specs.
    static func target(filters specs: [String], encoding: VariantEncoding, registry: Registry) throws -> RenderTarget {
        let filters = try specs.map { try registry.filter(parsing: $0) }
        return RenderTarget(name: "custom", chain: FilterChain(filters), encoding: encoding)
    }
}
