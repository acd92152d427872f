// MARK: - FailOn

/// How much damage in the pixel data stops a decode: sharp's `failOn`, in order of
/// sensitivity. Each level fails on what the levels before it fail on, and more.
///
/// Damage a level lets through is decoded as far as the data goes (a truncated JPEG: the rows
/// that arrived, the rest grey as libjpeg fills them; a truncated PNG, WebP, BMP or TGA: the
/// rows that arrived, the rest transparent) and reported as a ``DecodeWarning``. A damaged
/// *header* always fails: there is no picture to show.
///
/// ```swift
/// var options = DecodeOptions(failOn: .none)
/// options.warnings = DecodeWarningHandler { print("warning: \($0)") }
/// let partial = try decoder.decode(truncatedJPEG, header: header, options: options)
/// ```
public enum FailOn: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Never fail on damaged pixel data: decode what is there.
    case none
    /// Fail when the data ends before the image does; other damage is decoded past.
    case truncated
    /// Fail on truncation and on errors in the pixel data (a bad CRC, a corrupt compressed
    /// stream); decoders' warnings about data they could decode past are let through.
    case error
    /// Fail on anything a decoder warns about in the pixel data (the default, as sharp's): a
    /// picture served and cached for a year is never a half-grey one by surprise.
    case warning

    /// The default level, ``warning``.
    public static let `default` = FailOn.warning

    /// The names accepted in `filters.d` (`[decode] fail-on = "…"`) and by `--fail-on`.
    public static let names = allCases.map(\.rawValue)

    public var description: String { rawValue }

    /// Whether a decode at this level stops on `damage`.
    ///
    /// ```swift
    /// FailOn.error.stops(on: .truncated)   // true
    /// FailOn.truncated.stops(on: .error)   // false
    /// ```
    public func stops(on damage: DecodeDamage) -> Bool {
        switch damage {
        case .truncated: return self != .none
        case .error: return self == .error || self == .warning
        case .warning: return self == .warning
        }
    }
}

// MARK: - DecodeDamage

/// The kinds of damage a decoder meets in pixel data, matched against ``FailOn``.
public enum DecodeDamage: String, Sendable, Hashable, Codable {
    /// The data ends before the image does.
    case truncated
    /// The data is wrong in a way the codec calls an error (a bad checksum, an invalid code).
    case error
    /// The codec warned and went on (a corrupt entropy code it resynchronised after, extra data).
    case warning
}
