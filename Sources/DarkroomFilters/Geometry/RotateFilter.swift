import DarkroomCore

// MARK: - rotate

/// `rotate(angle, background)` — turns the image `angle` degrees clockwise (−360…360;
/// negative turns anticlockwise).
///
/// - Multiples of 90° are exact pixel moves (`Image/applying(_:)`): 90° and 270° swap the
///   sides, and `background` is not used.
/// - Any other angle turns the image about its centre onto the bounding box of the turned
///   image (a 100×50 image at 30° becomes 112×94), sampled with a Catmull-Rom bicubic on
///   premultiplied colour and with anti-aliased edges; the corners the image does not cover are
///   `background` (default `transparent`). The result has alpha when the background is
///   translucent or the image has alpha. See `RotationSampler`.
///
/// Not idempotent. Angles are kept modulo 360 (`angle=-90` is `rotate(angle=270,…)`), so
/// equivalent turns share one identifier.
///
/// ```swift
/// let upright = try RotateFilter(angle: 90).apply(to: sideways)   // exact, identifier "rotate(angle=90,background=#00000000)"
/// let tilted = try RotateFilter(angle: -12.5, background: RGBA(r: 255, g: 255, b: 255)).apply(to: photo)
/// ```
public struct RotateFilter: DeclaredFilter {
    public static let name = "rotate"
    public static let summary =
        "Turns the image angle degrees clockwise: exact for multiples of 90, otherwise onto its bounding box filled with background."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "angle", kind: .number(-360...360), unit: "degrees", summary: "clockwise turn; negative is anticlockwise"),
        FilterArgument(
            name: "background", kind: .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0)),
            summary: "colour of the corners a turn other than a multiple of 90 degrees uncovers"),
    ]
    public static let isIdempotent = false

    public let arguments: FilterArguments

    /// Keeps the arguments in one canonical form, so turns that do the same thing share an
    /// identifier (and a cache entry): the angle is taken modulo 360 into 0..<360 (−90 and 270
    /// are both 270; 360 is 0), and a right-angle turn, which never uses its background, always
    /// carries the default one.
    public init(arguments: FilterArguments) {
        var values = arguments.values
        var angle = arguments.double("angle").truncatingRemainder(dividingBy: 360)
        if angle < 0 { angle += 360 }
        if angle == 0 || angle >= 360 { angle = 0 }  // −0, and −1e-300 + 360 rounding to 360
        values["angle"] = .number(angle)
        if (angle / 90).rounded() == angle / 90 { values["background"] = .color(RGBA(r: 0, g: 0, b: 0, a: 0)) }
        self.arguments = FilterArguments(filter: arguments.filter, values: values)
    }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` outside −360…360.
    public init(angle: Double, background: RGBA = RGBA(r: 0, g: 0, b: 0, a: 0)) throws {
        self = try Self.make([
            ("angle", .number(angle)), ("background", .text(FilterValue.color(background).canonicalText)),
        ])
    }

    /// The input's size for a half turn, its sides swapped for a quarter turn, else the
    /// bounding box of the turned image.
    public func outputSize(forInputSize size: PixelSize) -> PixelSize? {
        let angle = arguments.double("angle")
        let quarterTurns = angle / 90
        guard quarterTurns == quarterTurns.rounded() else { return RotationSampler.outputSize(of: size, degrees: angle) }
        return Int(quarterTurns) % 2 == 0 ? size : PixelSize(width: size.height, height: size.width)
    }

    public func apply(to image: Image) throws -> Image {
        let angle = arguments.double("angle")
        let quarterTurns = angle / 90
        if quarterTurns == quarterTurns.rounded() {
            switch ((Int(quarterTurns) % 4) + 4) % 4 {
            case 1: return image.applying(.right)
            case 2: return image.applying(.down)
            case 3: return image.applying(.left)
            default: return image
            }
        }
        try FilterOutputLimit.check(RotationSampler.outputSize(of: image.size, degrees: angle), filter: "rotate")
        let turned = RotationSampler.rotate(image, degrees: angle, background: arguments.color("background"))
        // A turn too small to uncover anything leaves an opaque image opaque: no alpha channel.
        return image.hasAlpha || !turned.hasAlpha ? turned : turned.withAlphaScanned()
    }
}
