import DarkroomConfig
import DarkroomCore

// MARK: - FailOnOption

/// `--fail-on LEVEL` of `convert`, `render` and `batch`: how much damage stops a decode
/// (sharp's `failOn`), over the configuration's `[decode] fail-on`. Damage a level lets
/// through is printed as `darkroom: warning: INPUT: …` and the image is written.
///
/// ```swift
/// let decoding = try FailOnOption.decoding(option: "truncated", configuration: configuration, input: "cut.jpg")
/// ```
enum FailOnOption {
    /// The help text of `render` and `batch`.
    static let help = "How much damage in the pixel data stops a decode: none, truncated, error or warning "
        + "(default: [decode] fail-on in filters.d, else warning). \(afterward)"
    /// The help text of `convert`, which reads no configuration.
    static let convertHelp = "How much damage in the pixel data stops a decode: none, truncated, error or warning "
        + "(default: warning). \(afterward)"
    private static let afterward = "Damage let through is decoded as far as the data goes and printed as a warning."

    /// The level `option` names, else the configuration's (`nil` for `convert`, which reads none).
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` for an unknown name.
    static func level(_ option: String?, configuration: Configuration?) throws -> FailOn {
        guard let option else { return configuration?.decodeSettings.failOn ?? .default }
        guard let level = FailOn(rawValue: option) else {
            let hint = NearestName.suggestion(for: option, among: FailOn.names).map { " (did you mean '\($0)'?)" } ?? ""
            throw DarkroomError.invalidArgument(
                name: "--fail-on", value: option, expected: "one of \(FailOn.names.joined(separator: ", "))\(hint)")
        }
        return level
    }

    /// `base` failing at the chosen level, within the configuration's `[limits]` `max-pixels`
    /// and `max-input-size`, its warnings printed to standard error naming the input (the
    /// warning's own source when the engine knows it, else `input`).
    static func decoding(
        _ base: DecodeOptions = DecodeOptions(), option: String?, configuration: Configuration?, input: String
    ) throws -> DecodeOptions {
        var options = base
        options.failOn = try level(option, configuration: configuration)
        if let limits = configuration?.limitSettings {
            if let maxPixels = limits.maxPixels { options.limits.maxPixels = maxPixels }
            if let maxInputSize = limits.maxInputSize { options.limits.maxInputBytes = maxInputSize }
            if let maxFrames = limits.maxFrames { options.limits.maxFrames = maxFrames }
        }
        options.warnings = DecodeWarningHandler { warning in
            StandardError.write("darkroom: warning: \(CommandFailure.shown(warning.source ?? input)): \(warning)\n")
        }
        return options
    }
}
