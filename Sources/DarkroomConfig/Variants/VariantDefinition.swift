import DarkroomCore

// MARK: - VariantDefinition

/// One `[variants.NAME]` table as written in one file, validated on its own: its filters are
/// built, its settings checked. Bases are resolved later, once every file has been read.
struct VariantDefinition: Sendable {
    var name: String
    /// The variant's header (or the key that first names it).
    var location: SourceLocation
    var description: String?
    /// The `base` key's value and where it is written.
    var base: (name: String, location: SourceLocation)?
    /// This definition's own filters, in order (the base's come first when resolved).
    var filters: [any ImageFilter] = []
    /// The encoder settings this definition sets itself (`format` only when explicit).
    var encoding = VariantEncoding()
    /// `format = "auto"`: the source's format, even when the base names one.
    var formatIsAuto = false
    /// Where each encoder setting is written, by key.
    var settingLocations: [String: SourceLocation] = [:]
    /// Some part of the definition is wrong; the variant is left out of the configuration.
    var hasErrors = false
    /// The first error found in the definition itself, when it has any.
    var firstError: Diagnostic?
    /// Earlier definitions of the same name that this one replaces, oldest first.
    var overrides: [SourceLocation] = []

    init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}
