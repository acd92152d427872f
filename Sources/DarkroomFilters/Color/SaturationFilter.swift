import DarkroomCore

// MARK: - saturation

/// `saturation(factor)` — the CSS `saturate()` matrix: 0 = grey, 1 = unchanged, 2 = twice as
/// saturated (clamped to 0…255). Greys are left exactly as they are. Alpha is unchanged.
///
/// ```swift
/// let vivid = try SaturationFilter(factor: 1.4).apply(to: image) // "saturation(factor=1.4)"
/// ```
public struct SaturationFilter: DeclaredFilter {
    public static let name = "saturation"
    public static let summary = "Changes colour saturation with the CSS saturate() matrix; alpha unchanged."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "factor", kind: .number(0...4), default: .number(1),
            summary: "0 = grey, 1 = unchanged, 2 = double saturation"),
    ]
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` outside 0…4.
    public init(factor: Double) throws { self = try Self.make([("factor", .number(factor))]) }

    var matrix: ColorMatrix {
        let s = arguments.double("factor")
        return ColorMatrix(rows: [
            [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s],
            [0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s],
            [0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s],
        ])
    }

    public func apply(to image: Image) throws -> Image { matrix.apply(to: image) }
}
