import DarkroomCore

// MARK: - contrast

/// `contrast(factor)` — CSS `contrast()`: scales each colour channel's distance from mid-grey,
/// `c' = factor · (c − 127.5) + 127.5` (0 = flat grey, 1 = unchanged, 2 = twice the contrast),
/// clamped to 0…255. Alpha is unchanged.
///
/// ```swift
/// let punchy = try ContrastFilter(factor: 1.5).apply(to: image) // "contrast(factor=1.5)"
/// ```
public struct ContrastFilter: DeclaredFilter {
    public static let name = "contrast"
    public static let summary =
        "Scales colour distances from mid-grey by a factor, like CSS contrast(); alpha unchanged."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "factor", kind: .number(0...4), default: .number(1),
            summary: "0 = flat grey, 1 = unchanged, 2 = double contrast"),
    ]
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` outside 0…4.
    public init(factor: Double) throws { self = try Self.make([("factor", .number(factor))]) }

    var matrix: ColorMatrix {
        let factor = arguments.double("factor")
        return .diagonal(scale: factor, offset: 127.5 * (1 - factor))
    }

    public func apply(to image: Image) throws -> Image { matrix.apply(to: image) }
}
