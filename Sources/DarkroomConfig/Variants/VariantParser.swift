import DarkroomCore

// MARK: - VariantParser

/// Validates one `[variants.NAME]` table: known keys only, the right types, filters that
/// exist with valid arguments, encoder settings in range. Every problem becomes a
/// ``Diagnostic`` at the line of the offending key or element.
struct VariantParser {
    let filterParser: FilterEntryParser
    /// The formats some encoder writes; `nil` accepts every known format.
    let writableFormats: Set<ImageFormat>?

    init(catalogue: [String: FilterSchema], writableFormats: Set<ImageFormat>? = nil) {
        filterParser = FilterEntryParser(catalogue: catalogue)
        self.writableFormats = writableFormats
    }

    /// Every key a variant table may have.
    static let knownKeys = ["description", "base", "filters"] + VariantEncoding.keys

    func parse(name: String, node: ConfigNode, diagnostics: inout [Diagnostic]) -> VariantDefinition {
        var definition = VariantDefinition(name: name, location: node.location)
        func fail(_ location: SourceLocation, _ message: String) {
            diagnostics.append(.error(at: location, message))
            definition.hasErrors = true
        }
        if !Self.isVariantName(name) {
            fail(node.location, "variant name '\(name)' must be letters, digits, '-' and '_'")
        }
        guard node.table != nil else {
            fail(node.location, "variant '\(name)' must be a table ([variants.\(name)]), not \(node.value.kindDescription)")
            return definition
        }
        for (key, member) in node.orderedMembers {
            switch key {
            case "description":
                guard let text = member.string else {
                    fail(member.location, "'description' of variant '\(name)' must be a string, not \(member.value.kindDescription)")
                    continue
                }
                definition.description = text
            case "base":
                guard let base = member.string else {
                    fail(member.location, "'base' of variant '\(name)' must be a string naming a variant, not \(member.value.kindDescription)")
                    continue
                }
                definition.base = (base, member.location)
            case "filters":
                guard let entries = member.array else {
                    fail(member.location, "'filters' of variant '\(name)' must be an array of filters, not \(member.value.kindDescription)")
                    continue
                }
                for entry in entries {
                    if let filter = filterParser.filter(from: entry, variant: name, diagnostics: &diagnostics) {
                        definition.filters.append(filter)
                    } else {
                        definition.hasErrors = true
                    }
                }
            case _ where VariantEncoding.keys.contains(key):
                definition.settingLocations[key] = member.location
                if let problem = applySetting(key, member, to: &definition) {
                    fail(member.location, problem)
                }
            default:
                let hint = NearestName.suggestion(for: key, among: Self.knownKeys).map { " (did you mean '\($0)'?)" } ?? ""
                fail(member.location, "unknown key '\(key)' in variant '\(name)'\(hint); expected one of \(Self.knownKeys.joined(separator: ", "))")
            }
        }
        return definition
    }

    // MARK: - Encoder settings

    /// Sets one encoder setting on `definition`, or returns what is wrong with it.
    private func applySetting(_ key: String, _ node: ConfigNode, to definition: inout VariantDefinition) -> String? {
        switch key {
        case "format":
            guard let text = node.string else { return "'format' must be a string, not \(node.value.kindDescription)" }
            if text.lowercased() == "auto" {
                definition.formatIsAuto = true
            } else if let format = ImageFormat(name: text) {
                definition.encoding.format = format
                if let writableFormats, !writableFormats.contains(format) {
                    let writable = ImageFormat.allCases.filter(writableFormats.contains).map(\.rawValue)
                    return "format '\(text)' cannot be written: no registered encoder writes it "
                        + "(writable: \(writable.isEmpty ? "none" : writable.joined(separator: ", ")))"
                }
            } else {
                let names = ["auto"] + ImageFormat.allCases.map(\.rawValue)
                let hint = NearestName.suggestion(for: text, among: names).map { " (did you mean '\($0)'?)" } ?? ""
                return "unknown format '\(text)'\(hint); expected one of \(names.joined(separator: ", "))"
            }
        case "quality", "compression", "speed":
            guard let value = node.integer else { return "'\(key)' must be an integer, not \(node.value.kindDescription)" }
            let options: EncodeOptions
            switch key {
            case "quality":
                definition.encoding.quality = value
                options = EncodeOptions(format: .jpeg, quality: value)
            case "compression":
                definition.encoding.compression = value
                options = EncodeOptions(format: .png, compressionLevel: value)
            default:
                definition.encoding.speed = value
                options = EncodeOptions(format: .avif, speed: value)
            }
            do { try options.validate() } catch { return "\(error)" }
        case "progressive", "lossless", "strip", "optimize":
            guard let value = node.boolean else { return "'\(key)' must be true or false, not \(node.value.kindDescription)" }
            switch key {
            case "progressive": definition.encoding.progressive = value
            case "lossless": definition.encoding.lossless = value
            case "optimize": definition.encoding.optimize = value
            default: definition.encoding.strip = value
            }
        default:
            return "'\(key)' is not an encoder setting"
        }
        return nil
    }

    // MARK: - Names

    /// Variant names: ASCII letters, digits, `-` and `_` (they appear in URLs and cache keys).
    static func isVariantName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
