import DarkroomCore

// MARK: - brightness

/// `brightness(factor)` — CSS `brightness()`: multiplies every colour channel by `factor`
/// (0 = black, 1 = unchanged, 2 = twice as bright, clamped at 255). Alpha is unchanged.
///
/// ```swift
/// let lighter = try BrightnessFilter(factor: 1.25).apply(to: image) // "brightness(factor=1.25)"
/// ```
public struct BrightnessFilter: DeclaredFilter {
    public static let name = "brightness"
    public static let summary = "Multiplies the colour channels by a factor, like CSS brightness(); alpha unchanged."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "factor", kind: .number(0...4), default: .number(1),
            summary: "multiplier: 0 = black, 1 = unchanged, 2 = double"),
    ]
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` outside 0…4.
    public init(factor: Double) throws { self = try Self.make([("factor", .number(factor))]) }

    var matrix: ColorMatrix { .diagonal(scale: arguments.double("factor"), offset: 0) }

    public func apply(to image: Image) throws -> Image { matrix.apply(to: image) }
}
