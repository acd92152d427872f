// MARK: - ConfigNode

/// A value read from a configuration file together with where it was written: a `Sendable`
/// copy of the TOML tree that outlives the parser, so later code (caches, sources) can read its
/// own sections and still report `file:line` for its own errors.
///
/// ```swift
/// if let memory = configuration.caches["memory"], let limit = memory["limit-mb"] {
///     guard let megabytes = limit.integer else {
///         throw MyError("\(limit.location): 'limit-mb' must be an integer")
///     }
/// }
/// ```
public struct ConfigNode: Sendable, Hashable {
    /// The value itself; tables and arrays hold further nodes.
    public var value: ConfigValue
    /// Where the value (for a table: its header or first mention; for an array element: the
    /// element itself) was written.
    public var location: SourceLocation

    /// Creates a node holding `value`, written at `location`.
    public init(_ value: ConfigValue, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    // MARK: - Reading

    /// The string, or `nil` when this is not a string (dates are not strings here).
    public var string: String? {
        if case let .string(v) = value { return v }
        return nil
    }

    /// The integer, also when written as a float with a whole value (`80.0`, `1e3`), as filter
    /// arguments accept it; `nil` for fractions and values outside `Int`.
    public var integer: Int? {
        switch value {
        case let .integer(v): return v
        case let .float(v): return Int(exactly: v)
        default: return nil
        }
    }

    /// The number, for both floats and integers.
    public var number: Double? {
        switch value {
        case let .float(v): return v
        case let .integer(v): return Double(v)
        default: return nil
        }
    }

    /// The boolean, or `nil` when this is not one.
    public var boolean: Bool? {
        if case let .boolean(v) = value { return v }
        return nil
    }

    /// The elements, or `nil` when this is not an array.
    public var array: [ConfigNode]? {
        if case let .array(v) = value { return v }
        return nil
    }

    /// The members by key, or `nil` when this is not a table.
    public var table: [String: ConfigNode]? {
        if case let .table(v) = value { return v }
        return nil
    }

    /// The member `key` of a table, or `nil` (also when this is not a table).
    public subscript(key: String) -> ConfigNode? { table?[key] }

    /// The kind a component table (`[caches.NAME]`, `[sources.NAME]`) selects: its `type`,
    /// else `name`; with an error when `type` is not a non-empty string (`example` names a
    /// kind for the message).
    public func componentKind(name: String, section: String, example: String) -> (kind: String, problem: Diagnostic?) {
        guard let type = self["type"] else { return (name, nil) }
        if let text = type.string, !text.isEmpty { return (text, nil) }
        return (name, .error(at: type.location, "[\(section).\(name)] type must be the name of a \(example)"))
    }

    /// The members of a table in the order they were written (by location), or `[]`.
    public var orderedMembers: [(key: String, node: ConfigNode)] {
        (table ?? [:]).map { (key: $0.key, node: $0.value) }
            .sorted { ($0.node.location, $0.key) < ($1.node.location, $1.key) }
    }
}

// MARK: - ConfigValue

/// The TOML value kinds. Dates and times are kept as the text TOML prints for them.
public enum ConfigValue: Sendable, Hashable {
    /// A TOML string, escapes already resolved.
    case string(String)
    /// A TOML integer.
    case integer(Int)
    /// A TOML float.
    case float(Double)
    /// A TOML boolean.
    case boolean(Bool)
    /// A TOML date, time or date-time, as text (`1979-05-27T07:32:00Z`).
    case dateTime(String)
    /// A TOML array, each element with its own location.
    case array([ConfigNode])
    /// A TOML table (or inline table): its members by key.
    case table([String: ConfigNode])

    /// The kind's name for messages: "a string", "an integer", "a table", …
    public var kindDescription: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "a boolean"
        case .dateTime: "a date"
        case .array: "an array"
        case .table: "a table"
        }
    }
}
