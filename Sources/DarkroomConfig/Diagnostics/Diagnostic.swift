// MARK: - Diagnostic

/// One problem found while loading a configuration: where it is and what is wrong.
///
/// Loading never stops at the first problem; every diagnostic of every file is collected in
/// ``Configuration/diagnostics``. ``description`` is the line the CLI prints:
/// `file:line: message` for errors, `file:line: warning: message` for warnings
/// (the column is kept in ``column`` for editors but never printed — see ``SourceLocation``).
///
/// ```swift
/// for diagnostic in configuration.diagnostics { print(diagnostic) }
/// // filters.d/20-avatars.toml:4: unknown filter 'grayscal' (did you mean 'grayscale'?)
/// ```
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The element it names was left out of the configuration.
        case error
        /// Accepted, but probably not what was meant (e.g. a setting that does not apply).
        case warning
    }

    /// Whether the problem left something out (``Severity/error``) or is only a warning.
    public var severity: Severity
    /// Where the offending element was written.
    public var location: SourceLocation
    /// What is wrong, as printed after `file:line: `.
    public var message: String

    /// Creates a diagnostic of `severity` (an error unless given) at `location`.
    public init(_ severity: Severity = .error, at location: SourceLocation, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    /// An error at `location`.
    public static func error(at location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.error, at: location, message)
    }

    /// A warning at `location`.
    public static func warning(at location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.warning, at: location, message)
    }

    /// The file's name as it was given to the loader.
    public var file: String { location.file }
    /// 1-based line; `0` = the file as a whole.
    public var line: Int { location.line }
    /// 1-based column in Unicode scalars, when known; never printed.
    public var column: Int? { location.column }
    /// Whether this is an error rather than a warning.
    public var isError: Bool { severity == .error }

    /// `file:line: message`, or `file:line: warning: message`.
    public var description: String {
        severity == .warning ? "\(location): warning: \(message)" : "\(location): \(message)"
    }
}
