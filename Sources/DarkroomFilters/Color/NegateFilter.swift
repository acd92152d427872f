import DarkroomCore

// MARK: - negate

/// `negate` — inverts the colour channels (`c' = 255 − c`, like CSS `invert(1)`); alpha is
/// kept. Applying it twice gives the original image back.
///
/// ```swift
/// let negative = try NegateFilter().apply(to: image) // identifier "negate"
/// ```
public struct NegateFilter: DeclaredFilter {
    public static let name = "negate"
    public static let summary = "Inverts the colour channels (255 − c), like CSS invert(1); alpha unchanged."
    public static let arguments: [FilterArgument] = []
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// The filter (it takes no arguments).
    public init() throws { self = try Self.make() }

    static let matrix = ColorMatrix.diagonal(scale: -1, offset: 255)

    public func apply(to image: Image) throws -> Image { Self.matrix.apply(to: image) }
}
