import DarkroomCore

// MARK: - blur

/// `blur(sigma)` — a true Gaussian blur with standard deviation `sigma` in pixels (CSS
/// `blur(σpx)` uses the same σ). Colour is averaged premultiplied by alpha, so transparent
/// pixels lend no colour; pixels beyond the edges repeat the border pixel.
///
/// Below σ = 6 it is a direct separable kernel of radius ⌈3σ⌉ with normalised weights; from
/// σ = 6 on, Deriche's recursive Gaussian, whose cost does not grow with σ and which is at
/// least as close to the exact Gaussian. Both are `Float` throughout.
///
/// ```swift
/// let soft = try BlurFilter(sigma: 4).apply(to: image) // identifier "blur(sigma=4)"
/// ```
public struct BlurFilter: DeclaredFilter {
    public static let name = "blur"
    public static let summary =
        "Gaussian blur with standard deviation sigma (px), like CSS blur(); alpha-correct, edges clamped."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "sigma", kind: .number(0.3...100), default: .number(2), unit: "px",
            summary: "standard deviation of the Gaussian"),
    ]
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` outside 0.3…100.
    public init(sigma: Double = 2) throws { self = try Self.make([("sigma", .number(sigma))]) }

    public func apply(to image: Image) throws -> Image {
        GaussianBlur.apply(to: image, sigma: arguments.double("sigma"))
    }

    /// `sigma`: a resize just before this blur decodes with no shrink-on-load residual
    /// (`FilterChain.sizeHint(forSourceSize:)`) when it is at least 1.
    public var smoothingSigma: Double { arguments.double("sigma") }
}
