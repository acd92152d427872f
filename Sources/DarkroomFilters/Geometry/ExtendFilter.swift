import DarkroomCore

// MARK: - extend

/// `extend(top, right, bottom, left, background)` — adds borders of the given widths in pixels
/// (default 0) around the image, filled with `background` (default `transparent`), like sharp's
/// `extend`. The result has alpha when the image has or the background is translucent. Not
/// idempotent: every application adds the borders again.
///
/// ```swift
/// let framed = try ExtendFilter(top: 8, right: 8, bottom: 8, left: 8, background: RGBA(r: 0, g: 0, b: 0)).apply(to: photo)
/// // identifier "extend(background=#000000ff,bottom=8,left=8,right=8,top=8)"
/// ```
public struct ExtendFilter: DeclaredFilter {
    public static let name = "extend"
    public static let summary = "Adds borders of top, right, bottom and left px around the image, filled with background."
    public static let arguments: [FilterArgument] = ["top", "right", "bottom", "left"].map { side in
        FilterArgument(
            name: side, kind: .integer(0...16384), default: .integer(0), unit: "px", summary: "\(side) border width")
    } + [
        FilterArgument(
            name: "background", kind: .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0)),
            summary: "colour of the borders"),
    ]
    public static let isIdempotent = false

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a border outside 0…16384.
    public init(
        top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0, background: RGBA = RGBA(r: 0, g: 0, b: 0, a: 0)
    ) throws {
        self = try Self.make([
            ("top", .integer(top)), ("right", .integer(right)), ("bottom", .integer(bottom)), ("left", .integer(left)),
            ("background", .text(FilterValue.color(background).canonicalText)),
        ])
    }

    /// The input with the borders added: the arguments alone decide it.
    public func outputSize(forInputSize size: PixelSize) -> PixelSize? {
        PixelSize(
            width: size.width + arguments.int("left") + arguments.int("right"),
            height: size.height + arguments.int("top") + arguments.int("bottom"))
    }

    public func apply(to image: Image) throws -> Image {
        let top = arguments.int("top"), left = arguments.int("left")
        let canvas = PixelSize(
            width: image.width + left + arguments.int("right"), height: image.height + top + arguments.int("bottom"))
        try FilterOutputLimit.check(canvas, filter: "extend")
        return PixelRegion.place(image, on: canvas, left: left, top: top, background: arguments.color("background"))
    }
}
