import DarkroomCore

// MARK: - VignetteFilter

/// Darkens the image towards its corners, like a lens vignette: pixels inside `radius`
/// (a fraction of the half-diagonal) are untouched; beyond it they fade smoothly towards
/// `color` by up to `strength` at the corners, scaled by the colour's own alpha (a transparent
/// colour changes nothing). The image's alpha is untouched.
///
/// An example of a third-party filter: it lives outside Darkroom's own modules, declares its
/// arguments as data, and is registered by ``ExampleFilters/register(in:)``.
///
/// ```toml
/// [variants.vignetted]
/// filters = [ { filter = "vignette", strength = 0.6, radius = 0.5 } ]
/// ```
public struct VignetteFilter: DeclaredFilter {
    public static let name = "vignette"
    public static let summary = "Fades the corners towards a colour (a lens vignette)."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "strength", kind: .number(0...1), default: .number(0.5),
            summary: "how far the corners fade towards the colour (0 = none, 1 = fully)"),
        FilterArgument(
            name: "radius", kind: .number(0...1), default: .number(0.6),
            summary: "where the fade starts, as a fraction of the half-diagonal"),
        FilterArgument(
            name: "color", kind: .color, default: .color(RGBA(r: 0, g: 0, b: 0)),
            summary: "the colour the corners fade to (its alpha scales the fade)"),
    ]
    public static let isIdempotent = false

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) {
        self.arguments = arguments
    }

    public func apply(to image: Image) throws -> Image {
        let strength = arguments.double("strength"), radius = arguments.double("radius")
        let color = arguments.color("color")
        let target = [Double(color.r), Double(color.g), Double(color.b)]
        let opacity = Double(color.a) / 255
        let w = image.width, h = image.height
        let cx = Double(w) / 2, cy = Double(h) / 2
        let halfDiagonal = (cx * cx + cy * cy).squareRoot()
        return image.pixels.withUnsafeBufferPointer { src in
            Image(width: w, height: h, hasAlpha: image.hasAlpha) { dst in
                for y in 0..<h {
                    let dy = Double(y) + 0.5 - cy
                    for x in 0..<w {
                        let dx = Double(x) + 0.5 - cx
                        let distance = (dx * dx + dy * dy).squareRoot() / halfDiagonal
                        let t = radius >= 1 ? 0 : max(0, min(1, (distance - radius) / (1 - radius)))
                        // Smoothstep, so the fade has no visible edge.
                        let amount = strength * opacity * t * t * (3 - 2 * t)
                        let i = (y * w + x) * 4
                        for c in 0..<3 {
                            let value = Double(src[i + c]) * (1 - amount) + target[c] * amount
                            dst[i + c] = UInt8(max(0, min(255, value.rounded())))
                        }
                        dst[i + 3] = src[i + 3]
                    }
                }
            }
        }
    }
}
