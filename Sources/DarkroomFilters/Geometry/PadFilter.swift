import DarkroomCore

// MARK: - pad

/// `pad(width, height, gravity, background)` — places the image, unscaled, on a canvas of at
/// least `width`×`height`: each side of the canvas is the larger of the image's and the
/// requested one, so nothing is ever cut off. `gravity` puts the image against an edge, a
/// corner or the centre (default; an odd leftover pixel goes right or bottom); the rest is
/// `background` (default `transparent`). The result has alpha when the image has or the
/// background is translucent. Idempotent: the padded image already has the size.
///
/// ```swift
/// let square = try PadFilter(width: 512, height: 512, background: RGBA(r: 255, g: 255, b: 255)).apply(to: logo)
/// // identifier "pad(background=#ffffffff,gravity=center,height=512,width=512)"
/// ```
public struct PadFilter: DeclaredFilter {
    public static let name = "pad"
    public static let summary =
        "Places the image unscaled on a canvas of at least width×height px at the gravity, filled with background."
    public static let arguments: [FilterArgument] = [
        FilterArgument(name: "width", kind: .integer(1...16384), unit: "px", summary: "smallest canvas width"),
        FilterArgument(name: "height", kind: .integer(1...16384), unit: "px", summary: "smallest canvas height"),
        FilterArgument(
            name: "gravity", kind: .choice(Gravity.names), default: .choice("center"),
            summary: "where the image sits on the canvas"),
        FilterArgument(
            name: "background", kind: .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0)),
            summary: "colour of the added area"),
    ]
    public static let isIdempotent = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a side outside
    ///   1…16384 or an unknown gravity.
    public init(width: Int, height: Int, gravity: String = "center", background: RGBA = RGBA(r: 0, g: 0, b: 0, a: 0)) throws {
        self = try Self.make([
            ("width", .integer(width)), ("height", .integer(height)), ("gravity", .text(gravity)),
            ("background", .text(FilterValue.color(background).canonicalText)),
        ])
    }

    /// The canvas: at least `width` × `height`, never smaller than the input.
    public func outputSize(forInputSize size: PixelSize) -> PixelSize? {
        PixelSize(width: max(size.width, arguments.int("width")), height: max(size.height, arguments.int("height")))
    }

    public func apply(to image: Image) throws -> Image {
        let canvas = PixelSize(
            width: max(image.width, arguments.int("width")), height: max(image.height, arguments.int("height")))
        let (left, top) = Gravity(named: arguments.string("gravity")).origin(of: image.size, in: canvas)
        try FilterOutputLimit.check(canvas, filter: "pad")
        return PixelRegion.place(image, on: canvas, left: left, top: top, background: arguments.color("background"))
    }
}
