import DarkroomCore

// MARK: - rounded-corners

/// `rounded-corners(radius)` — rounds the image's corners with quarter circles of `radius`
/// pixels (like CSS `border-radius`, and likewise clamped to half the shorter side, so a huge
/// radius on a square gives a disc). Edges are anti-aliased by area coverage; outside the shape
/// the image is fully transparent. The output has alpha (radius 0 changes nothing). Not
/// idempotent: a second pass
/// scales the edge alpha again.
///
/// ```swift
/// let card = try RoundedCornersFilter(radius: 24).apply(to: image)
/// // identifier "rounded-corners(radius=24)"
/// ```
public struct RoundedCornersFilter: DeclaredFilter {
    public static let name = "rounded-corners"
    public static let summary =
        "Rounds the corners with radius px (clamped to half the shorter side), anti-aliased; outside is transparent."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "radius", kind: .integer(0...65535), default: .integer(16), unit: "px",
            summary: "corner radius, clamped to half the shorter side"),
    ]
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` outside 0…65535.
    public init(radius: Int = 16) throws { self = try Self.make([("radius", .integer(radius))]) }

    public func apply(to image: Image) throws -> Image {
        // No radius, no change: an opaque image stays without alpha.
        guard arguments.int("radius") > 0 else { return image }
        return RoundedRectMask.apply(to: image, radius: Double(arguments.int("radius")))
    }
}
