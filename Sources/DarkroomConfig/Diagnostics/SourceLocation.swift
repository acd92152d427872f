// MARK: - SourceLocation

/// A place in a configuration file: the file's name as it was given to the loader, a 1-based
/// line, and the 1-based column (in Unicode scalars) when it is known.
///
/// Line `0` stands for the file (or directory) as a whole, e.g. for "cannot read file".
///
/// ```swift
/// let here = SourceLocation(file: "filters.d/20-avatars.toml", line: 2, column: 1)
/// here.description // "filters.d/20-avatars.toml:2"
/// ```
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's name (or path) as it was given to the loader.
    public var file: String
    /// 1-based line; `0` = the whole file.
    public var line: Int
    /// 1-based column in Unicode scalars, when known.
    public var column: Int?

    /// Creates a location in `file` at 1-based `line` (`0` for the whole file) and, when known,
    /// 1-based `column`.
    public init(file: String, line: Int, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// A location naming the file as a whole (line `0`).
    public static func wholeFile(_ file: String) -> SourceLocation {
        SourceLocation(file: file, line: 0)
    }

    /// `file:line`, or just `file` for the whole file. The column is never printed, so every
    /// message reads the same whether or not it is known (the CLI prints `file:line: message`).
    public var description: String {
        line > 0 ? "\(file):\(line)" : file
    }

    /// Orders by file name, then line, then column (unknown columns first).
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        if lhs.line != rhs.line { return lhs.line < rhs.line }
        return (lhs.column ?? 0) < (rhs.column ?? 0)
    }
}
