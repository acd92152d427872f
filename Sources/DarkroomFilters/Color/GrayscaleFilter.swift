import DarkroomCore

// MARK: - grayscale

/// `grayscale` — converts to grey like CSS `grayscale(1)`: each colour channel becomes the
/// Rec. 709 luma `0.2126 R + 0.7152 G + 0.0722 B` of the (gamma-encoded) pixel. Alpha is
/// unchanged. Idempotent: grey stays exactly the same grey.
///
/// ```swift
/// let grey = try GrayscaleFilter().apply(to: image)   // identifier "grayscale"
/// ```
public struct GrayscaleFilter: DeclaredFilter {
    public static let name = "grayscale"
    public static let summary =
        "Converts to grey with Rec. 709 luma (0.2126 R + 0.7152 G + 0.0722 B), like CSS grayscale(1); alpha unchanged."
    public static let arguments: [FilterArgument] = []
    public static let isIdempotent = true
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// The filter (it takes no arguments).
    public init() throws { self = try Self.make() }

    /// Every row is the luma row.
    static let matrix = ColorMatrix(rows: [ColorMatrix.luma, ColorMatrix.luma, ColorMatrix.luma])

    public func apply(to image: Image) throws -> Image { Self.matrix.apply(to: image) }
}
