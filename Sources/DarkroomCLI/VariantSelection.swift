import Darkroom
import DarkroomTools
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
        RenderTarget(name: "custom", chain: FilterChain(try adHocChain(specs, registry: registry).filters), encoding: encoding)
    }

    /// The filters of `--filter` texts, and the encoder settings the last one may end with.
    ///
    /// Each text is one filter or a chain in identifier syntax (`a(…)|b(…)`), and the last may
    /// end with `>` and encoder settings (`>jpeg(progressive=true,quality=85)`), so every
    /// identifier `darkroom list` prints can be given as it is — `>auto()` alone is the empty
    /// chain. Argument values in identifiers are percent-escaped, so `|` and `>` only ever
    /// separate filters and settings.
    static func adHocChain(_ specs: [String], registry: Registry) throws -> (filters: [any ImageFilter], encoding: VariantEncoding?) {
        var filters: [any ImageFilter] = []
        var encoding: VariantEncoding?
        for (index, spec) in specs.enumerated() {
            if spec.contains(">") && index != specs.count - 1 {
                throw DarkroomError.invalidArgument(
                    name: "--filter", value: spec, expected: "encoder settings (after '>') only at the end of the last --filter")
            }
            do {
                let parsed = try registry.chain(parsing: spec)
                filters += parsed.filters
                encoding = parsed.encoding ?? encoding
            } catch let DarkroomError.invalidArgument(name, value, expected) where name == "chain" {
                throw DarkroomError.invalidArgument(name: "--filter", value: value, expected: expected)
            }
        }
        return (filters, encoding)
    }
}
