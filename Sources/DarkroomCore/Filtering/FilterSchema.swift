// MARK: - FilterSchema

/// A filter's declaration: its name, what it does, its arguments as data, and how to build it.
/// The registry holds schemas; configs and `--filter` specs are validated against them, and
/// every built filter's identifier is derived from the schema, never written by hand.
///
/// ```swift
/// let schema = FilterSchema(BlurFilter.self)
/// let blur = try schema.makeFilter([("sigma", .number(4))])
/// blur.identifier // "blur(sigma=4)"
/// ```
public struct FilterSchema: Sendable {
    /// The filter's name, as written in chains and at the start of its identifier, e.g. `blur`.
    public let name: String
    /// A one-line description of what the filter does, for `darkroom list` and the docs.
    public let summary: String
    /// The arguments the filter declares; empty when it takes none.
    public let arguments: [FilterArgument]
    /// Applying the filter twice in a row gives the same result as once, so consecutive
    /// duplicates in a chain collapse (e.g. `grayscale`, `circle`, `aspect-fill` to one size).
    public let isIdempotent: Bool
    private let factory: @Sendable (FilterArguments) throws -> any ImageFilter

    /// Builds a schema from its parts; `factory` builds the filter from arguments already
    /// validated against `arguments` (a ``DeclaredFilter`` type uses ``FilterSchema/init(_:)`` instead).
    public init(
        name: String, summary: String, arguments: [FilterArgument], isIdempotent: Bool,
        factory: @escaping @Sendable (FilterArguments) throws -> any ImageFilter
    ) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.isIdempotent = isIdempotent
        self.factory = factory
    }

    /// The schema a ``DeclaredFilter`` type declares.
    public init<F: DeclaredFilter>(_ type: F.Type) {
        self.init(
            name: F.name, summary: F.summary, arguments: F.arguments, isIdempotent: F.isIdempotent,
            factory: { try F(arguments: $0) })
    }

    // MARK: - Validating

    /// Validates raw inputs: unknown names (with the nearest known one), duplicates,
    /// missing required arguments and out-of-range values are errors. Defaults fill the rest.
    public func resolve(_ inputs: [(String, FilterInput)]) throws -> FilterArguments {
        var values: [String: FilterValue] = [:]
        for (key, input) in inputs {
            guard let argument = arguments.first(where: { $0.name == key }) else {
                let known = arguments.map(\.name)
                let hint = NearestName.suggestion(for: key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                throw DarkroomError.invalidArgument(
                    name: "\(name) argument", value: key,
                    expected: known.isEmpty
                        ? "no arguments: '\(name)' takes none"
                        : "one of \(known.joined(separator: ", "))\(hint)")
            }
            guard values[key] == nil else {
                throw DarkroomError.invalidArgument(name: "\(name) argument '\(key)'", value: input.description, expected: "to be given once")
            }
            values[key] = try argument.value(from: input, filter: name)
        }
        for argument in arguments where values[argument.name] == nil {
            guard let fallback = argument.defaultValue else {
                throw DarkroomError.invalidArgument(
                    name: "\(name) argument '\(argument.name)'", value: "(missing)", expected: argument.expectation)
            }
            values[argument.name] = fallback
        }
        return FilterArguments(filter: name, values: values)
    }

    /// Validates inputs and builds the filter.
    public func makeFilter(_ inputs: [(String, FilterInput)]) throws -> any ImageFilter {
        try factory(resolve(inputs))
    }

    /// Builds the filter from already-resolved arguments.
    public func makeFilter(arguments: FilterArguments) throws -> any ImageFilter {
        try factory(arguments)
    }

    // MARK: - Identifier

    /// `name(arg=value,…)` with every argument (defaults included), sorted by name, values in
    /// canonical form; just `name` for a filter without arguments.
    public func identifier(for arguments: FilterArguments) -> String {
        guard !self.arguments.isEmpty else { return name }
        let list = arguments.values.keys.sorted().map { "\($0)=\(arguments.values[$0]!.canonicalText)" }
        return "\(name)(\(list.joined(separator: ",")))"
    }
}

// MARK: - FilterArguments

/// Validated argument values of one filter, defaults filled in. Typed accessors trap only on a
/// programming error (asking for an argument the schema does not declare, or the wrong type).
public struct FilterArguments: Sendable, Hashable {
    /// The name of the filter the values belong to.
    public let filter: String
    /// Every declared argument's value by argument name, defaults included.
    public let values: [String: FilterValue]

    /// Builds the arguments of the filter named `filter` from already-validated `values`.
    public init(filter: String, values: [String: FilterValue]) {
        self.filter = filter
        self.values = values
    }

    /// The value of argument `name` as an integer; traps when it is undeclared or not a whole number.
    public func int(_ name: String) -> Int { value(name).intValue ?? mistyped(name, "integer") }
    /// The value of argument `name` as a number (an integer converts); traps when it is undeclared
    /// or not numeric.
    public func double(_ name: String) -> Double { value(name).doubleValue ?? mistyped(name, "number") }
    /// The value of argument `name` as a boolean; traps when it is undeclared or not a boolean.
    public func bool(_ name: String) -> Bool { value(name).boolValue ?? mistyped(name, "boolean") }
    /// The value of argument `name` as a colour; traps when it is undeclared or not a colour.
    public func color(_ name: String) -> RGBA { value(name).colorValue ?? mistyped(name, "colour") }
    /// The word or text of argument `name`; traps when it is undeclared or not a choice or text.
    public func string(_ name: String) -> String { value(name).stringValue ?? mistyped(name, "text") }

    /// The value of argument `name`; traps when the schema does not declare it.
    public func value(_ name: String) -> FilterValue {
        guard let value = values[name] else { preconditionFailure("\(filter) declares no argument '\(name)'") }
        return value
    }

    private func mistyped<T>(_ name: String, _ type: String) -> T {
        preconditionFailure("\(filter) argument '\(name)' is not a \(type)")
    }
}

// MARK: - DeclaredFilter

/// A filter whose arguments are declared as data. Its ``ImageFilter/identifier`` is derived
/// from the declaration and the stored ``arguments-property`` — implementations do not write one.
///
/// ```swift
/// struct Negate: DeclaredFilter {
///     static let name = "negate"
///     static let summary = "Inverts the colour channels."
///     static let arguments: [FilterArgument] = []
///     static let isIdempotent = false
///     let arguments: FilterArguments
///     init(arguments: FilterArguments) { self.arguments = arguments }
///     func apply(to image: Image) throws -> Image { /* … */ image }
/// }
/// ```
public protocol DeclaredFilter: ImageFilter {
    /// The filter's name, as written in chains and at the start of its identifier, e.g. `blur`.
    static var name: String { get }
    /// A one-line description of what the filter does, for `darkroom list` and the docs.
    static var summary: String { get }
    /// The arguments the filter declares; empty when it takes none.
    static var arguments: [FilterArgument] { get }
    /// Whether applying the filter twice in a row gives the same result as once, so that
    /// consecutive duplicates in a chain collapse.
    static var isIdempotent: Bool { get }
    /// `true` when the output always has the input's size (colour changes, blurs, masks,
    /// mirrors); the default is `false`. Gives ``ImageFilter/outputSize(forInputSize:)``.
    static var preservesSize: Bool { get }

    /// The validated arguments this instance was built with.
    var arguments: FilterArguments { get }

    /// Builds the filter from arguments validated against its declaration, defaults filled in;
    /// throws when they do not make a usable filter.
    init(arguments: FilterArguments) throws
}

extension DeclaredFilter {
    public var identifier: String { FilterSchema(Self.self).identifier(for: arguments) }

    public var isIdempotent: Bool { Self.isIdempotent }

    public static var preservesSize: Bool { false }

    public func outputSize(forInputSize size: PixelSize) -> PixelSize? { Self.preservesSize ? size : nil }

    /// Builds the filter from raw inputs, validated against the declaration.
    public static func make(_ inputs: [(String, FilterInput)] = []) throws -> Self {
        try Self(arguments: FilterSchema(Self.self).resolve(inputs))
    }
}
