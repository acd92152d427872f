import DarkroomCore

// MARK: - flip

/// `flip` — mirrors the image top↔bottom (ImageMagick's and sharp's `flip`), exactly: row `y`
/// becomes row `height − 1 − y`, copied whole. Flipping twice gives the image back, so it is
/// not idempotent.
///
/// ```swift
/// let mirrored = try FlipFilter().apply(to: image) // identifier "flip"
/// ```
public struct FlipFilter: DeclaredFilter {
    public static let name = "flip"
    public static let summary = "Mirrors the image top↔bottom (the bottom row becomes the top row)."
    public static let arguments: [FilterArgument] = []
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// The filter (it takes no arguments).
    public init() throws { self = try Self.make() }

    public func apply(to image: Image) throws -> Image {
        guard image.height > 1 else { return image }
        let rowBytes = image.bytesPerRow, height = image.height
        return image.pixels.withUnsafeBufferPointer { source in
            Image(width: image.width, height: height, hasAlpha: image.hasAlpha) { out in
                for y in 0..<height {
                    (out.baseAddress! + y * rowBytes).initialize(
                        from: source.baseAddress! + (height - 1 - y) * rowBytes, count: rowBytes)
                }
            }
        }
    }
}
