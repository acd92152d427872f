import Darkroom
import DarkroomConfig
import DarkroomCore

// MARK: - Choosing what to render

/// Turns `--variant` names or `--filter` specs into render targets.
enum VariantSelection {
    /// The targets for named variants of the configuration.
    /// - Throws: a ``DarkroomError`` in one line: for a variant left out by errors, the error
    ///   that left it out (`file:line: message`); for an unknown one, the nearest known name and,
    ///   when the configuration has errors, its first. Both point at `darkroom check`.
    static func targets(variants names: [String], configuration: Configuration, location: ConfigLocation) throws -> [RenderTarget] {
        var seen: Set<String> = []
        return try names.filter { seen.insert($0).inserted }.map { name in
            if let variant = configuration.variant(named: name) { return RenderTarget(variant: variant) }
            // One line that says what is wrong: the first error, when there are any.
            let errors = configuration.errors
            let problems = errors.first.map { first in
                "\(location) has \(errors.count == 1 ? "an error" : "\(errors.count) errors, the first"): \(first) (run darkroom check)"
            }
            if let problems, configuration.unresolvedVariants.contains(name) {
                let reason = configuration.unresolvedReasons[name].map { "it has an error: \($0) (run darkroom check)" }
                throw DarkroomError.invalidArgument(name: "variant", value: name, expected: "a valid variant; \(reason ?? problems)")
            }
            let hint = NearestName.suggestion(for: name, among: configuration.variantNames).map { " (did you mean '\($0)'?)" } ?? ""
            throw DarkroomError.invalidArgument(
                name: "variant", value: name,
                expected: "a variant defined in \(location)\(hint)\(problems.map { "; \($0)" } ?? "")")
        }
    }

    /// One ad-hoc target from `--filter` specs.
    static func target(filters specs: [String], encoding: VariantEncoding, registry: Registry) throws -> RenderTarget {
        let filters = try specs.map { try registry.filter(parsing: $0) }
        return RenderTarget(name: "custom", chain: FilterChain(filters), encoding: encoding)
    }
}
