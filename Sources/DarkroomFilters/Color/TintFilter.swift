import DarkroomCore

// MARK: - tint

/// `tint(color, intensity)` — colourises: each pixel's Rec. 709 luma `L` (0…1) is mapped onto
/// the tint colour, `tinted = L · color` (black stays black, white becomes the colour, greys
/// become shades of it), then mixed with the original: `out = original + k · (tinted − original)`
/// with `k = intensity · color.alpha / 255`. So a half-transparent colour tints half as much.
/// The image's own alpha is unchanged.
///
/// ```swift
/// let blue = try TintFilter(color: "#3366ff", intensity: 0.7).apply(to: image)
/// // identifier "tint(color=#3366ffff,intensity=0.7)"
/// ```
public struct TintFilter: DeclaredFilter {
    public static let name = "tint"
    public static let summary =
        "Colourises: luma mapped onto the colour (black stays black, white becomes the colour), "
        + "mixed with the original by intensity × the colour's alpha; alpha unchanged."
    public static let arguments: [FilterArgument] = [
        FilterArgument(name: "color", kind: .color, summary: "the colour white maps to"),
        FilterArgument(
            name: "intensity", kind: .number(0...1), default: .number(1),
            summary: "0 = unchanged, 1 = fully tinted"),
    ]
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Parameters:
    ///   - color: `#rgb`, `#rrggbb`, `#rrggbbaa` or a colour name.
    ///   - intensity: how much of the tint, 0 (unchanged) … 1 (fully), scaled by the colour's alpha.
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a bad colour or an
    ///   intensity outside 0…1.
    public init(color: String, intensity: Double = 1) throws {
        self = try Self.make([("color", .text(color)), ("intensity", .number(intensity))])
    }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for an intensity
    ///   outside 0…1.
    public init(color: RGBA, intensity: Double = 1) throws {
        try self.init(color: FilterValue.color(color).canonicalText, intensity: intensity)
    }

    var matrix: ColorMatrix {
        let color = arguments.color("color")
        let k = arguments.double("intensity") * Double(color.a) / 255
        let tint = [Double(color.r), Double(color.g), Double(color.b)].map { $0 / 255 }
        let tinted = ColorMatrix(rows: tint.map { t in ColorMatrix.luma.map { t * $0 } })
        return ColorMatrix.diagonal(scale: 1, offset: 0).mixed(with: tinted, k)
    }

    public func apply(to image: Image) throws -> Image { matrix.apply(to: image) }
}
