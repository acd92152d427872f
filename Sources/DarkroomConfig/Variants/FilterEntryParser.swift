import DarkroomCore

// MARK: - FilterEntryParser

/// Builds one filter from one element of a variant's `filters` array, which is either a
/// table naming the filter (`{ filter = "scale", width = 64, height = 64 }`, or one
/// `[[variants.NAME.filters]]` table) or a spec string in identifier syntax (`"blur(sigma=2)"`).
///
/// Every problem is reported, not just the first: an unknown filter (with the nearest known
/// name), each bad or unknown argument at its own line (with the message of
/// ``FilterSchema/resolve(_:)``, which names the argument and the allowed values), each
/// missing required argument, and a spec string that does not parse.
struct FilterEntryParser {
    let catalogue: [String: FilterSchema]

    /// One raw argument and where it is written.
    private struct RawArgument {
        var name: String
        var input: FilterInput
        var location: SourceLocation
    }

    /// The filter, or `nil` after appending the diagnostics that say why not.
    func filter(from node: ConfigNode, variant: String, diagnostics: inout [Diagnostic]) -> (any ImageFilter)? {
        switch node.value {
        case let .string(text):
            let spec: FilterSpec
            do {
                spec = try FilterSpec(parsing: text)
            } catch let DarkroomError.invalidArgument(_, _, expected) {
                diagnostics.append(.error(at: node.location, "cannot parse filter spec '\(text)': expected \(expected)"))
                return nil
            } catch {
                diagnostics.append(.error(at: node.location, "cannot parse filter spec '\(text)': \(error)"))
                return nil
            }
            let arguments = spec.arguments.map { RawArgument(name: $0.name, input: $0.value, location: node.location) }
            return build(spec.name, arguments, mistyped: [], at: node.location, nameAt: node.location, diagnostics: &diagnostics)
        case let .table(members):
            guard let nameNode = members["filter"] else {
                diagnostics.append(.error(
                    at: node.location,
                    "a filter of variant '\(variant)' has no 'filter' key naming the filter"))
                return nil
            }
            guard let name = nameNode.string else {
                diagnostics.append(.error(
                    at: nameNode.location, "'filter' must be a string naming a filter, not \(nameNode.value.kindDescription)"))
                return nil
            }
            var arguments: [RawArgument] = []
            var mistyped: Set<String> = []
            for (key, member) in node.orderedMembers where key != "filter" {
                guard let input = Self.input(member.value) else {
                    diagnostics.append(.error(
                        at: member.location,
                        "\(name) argument '\(key)' must be a number, a boolean or a string, not \(member.value.kindDescription)"))
                    mistyped.insert(key)
                    continue
                }
                arguments.append(RawArgument(name: key, input: input, location: member.location))
            }
            let filter = build(
                name, arguments, mistyped: mistyped, at: node.location, nameAt: nameNode.location, diagnostics: &diagnostics)
            return mistyped.isEmpty ? filter : nil
        default:
            diagnostics.append(.error(
                at: node.location,
                "a filter of variant '\(variant)' must be a table with a 'filter' key or a spec string such as "
                    + "\"blur(sigma=2)\", not \(node.value.kindDescription)"))
            return nil
        }
    }

    // MARK: - Building

    /// Validates every argument on its own (so each bad one is reported at its line), then the
    /// missing ones (except those already reported as `mistyped`), then builds the filter. An
    /// unknown name is reported where the name is written (`nameLocation`: in a
    /// `[[variants.x.filters]]` table, the `filter =` line rather than the header).
    private func build(
        _ name: String, _ arguments: [RawArgument], mistyped: Set<String>, at location: SourceLocation,
        nameAt nameLocation: SourceLocation, diagnostics: inout [Diagnostic]
    ) -> (any ImageFilter)? {
        guard let schema = catalogue[name] else {
            let known = catalogue.keys.sorted()
            let hint =
                NearestName.suggestion(for: name, among: known).map { " (did you mean '\($0)'?)" }
                ?? (known.isEmpty ? "; no filters are registered" : "; known filters: \(known.joined(separator: ", "))")
            diagnostics.append(.error(at: nameLocation, "unknown filter '\(name)'\(hint)"))
            return nil
        }
        var ok = true
        for argument in arguments {
            do {
                if let declared = schema.arguments.first(where: { $0.name == argument.name }) {
                    _ = try declared.value(from: argument.input, filter: schema.name)
                } else {
                    _ = try schema.resolve([(argument.name, argument.input)])  // throws the unknown-name error
                }
            } catch {
                diagnostics.append(.error(at: argument.location, "\(error)"))
                ok = false
            }
        }
        let given = Set(arguments.map(\.name)).union(mistyped)
        for declared in schema.arguments where declared.isRequired && !given.contains(declared.name) {
            diagnostics.append(.error(
                at: location, "filter '\(name)' is missing its required argument '\(declared.name)' (\(declared.expectation))"))
            ok = false
        }
        guard ok, mistyped.isEmpty else { return nil }
        do {
            return try schema.makeFilter(arguments.map { ($0.name, $0.input) })
        } catch {
            diagnostics.append(.error(at: location, "\(error)"))
            return nil
        }
    }

    /// The raw filter input a TOML scalar stands for; `nil` for arrays, tables and dates.
    static func input(_ value: ConfigValue) -> FilterInput? {
        switch value {
        case let .integer(v): .integer(v)
        case let .float(v): .number(v)
        case let .boolean(v): .boolean(v)
        case let .string(v): .text(v)
        case .dateTime, .array, .table: nil
        }
    }
}
