import DarkroomCore

// MARK: - flatten

/// `flatten(background)` — composites the image over an opaque background colour and drops
/// its alpha, as sharp's `flatten({ background })` and imgproxy's `background` do. Formats
/// without alpha (JPEG, BMP) flatten on white when they encode; put `flatten` last in a chain
/// to choose the colour:
///
/// ```toml
/// [variants.avatar-jpeg]
/// filters = [ "aspect-fill(height=128,width=128)", "circle", { filter = "flatten", background = "#202020" } ]
/// format = "jpeg"
/// ```
///
/// ```swift
/// let opaque = try FlattenFilter(background: "#000").apply(to: translucent)
/// // identifier "flatten(background=#000000ff)"; opaque.hasAlpha == false
/// ```
public struct FlattenFilter: DeclaredFilter {
    public static let name = "flatten"
    public static let summary =
        "Composites the image over an opaque background colour and drops its alpha (as JPEG encoding does over white)."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "background", kind: .color, default: .color(RGBA(r: 255, g: 255, b: 255)),
            summary: "the opaque colour under the image (its alpha must be ff)"),
    ]
    public static let isIdempotent = true
    public static let preservesSize = true

    public let arguments: FilterArguments

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a background that
    ///   is not opaque: a translucent background would leave the result translucent.
    public init(arguments: FilterArguments) throws {
        let background = arguments.color("background")
        guard background.a == 255 else {
            throw DarkroomError.invalidArgument(
                name: "flatten argument 'background'", value: FilterValue.color(background).canonicalText,
                expected: "an opaque colour (alpha ff)")
        }
        self.arguments = arguments
    }

    /// - Parameter background: `#rgb`, `#rrggbb`, `#rrggbbff` or a colour name.
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a bad or translucent colour.
    public init(background: String = "#ffffff") throws {
        self = try Self.make([("background", .text(background))])
    }

    public func apply(to image: Image) throws -> Image {
        image.flattened(over: arguments.color("background"))
    }
}
