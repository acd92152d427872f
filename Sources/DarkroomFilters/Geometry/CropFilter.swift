import DarkroomCore

// MARK: - crop

/// `crop(x, y, width, height)` — keeps the rectangle whose top-left corner is (`x`, `y`),
/// in pixels from the image's top-left. A rectangle reaching past the right or bottom edge is
/// clipped to the image; one entirely outside it is an error. Rows are copied whole, so the
/// kept pixels are exactly the source's. Not idempotent: cropping the crop cuts again.
///
/// ```swift
/// let face = try CropFilter(x: 120, y: 40, width: 200, height: 200).apply(to: photo)
/// // identifier "crop(height=200,width=200,x=120,y=40)"
/// ```
public struct CropFilter: DeclaredFilter {
    public static let name = "crop"
    public static let summary =
        "Keeps the width×height px rectangle at (x, y) from the top-left, clipped to the image."
    public static let arguments: [FilterArgument] = [
        FilterArgument(name: "x", kind: .integer(0...65535), unit: "px", summary: "left edge of the rectangle"),
        FilterArgument(name: "y", kind: .integer(0...65535), unit: "px", summary: "top edge of the rectangle"),
        FilterArgument(name: "width", kind: .integer(1...65535), unit: "px", summary: "width of the rectangle"),
        FilterArgument(name: "height", kind: .integer(1...65535), unit: "px", summary: "height of the rectangle"),
    ]
    public static let isIdempotent = false

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a value out of range.
    public init(x: Int, y: Int, width: Int, height: Int) throws {
        self = try Self.make([("x", .integer(x)), ("y", .integer(y)), ("width", .integer(width)), ("height", .integer(height))])
    }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` naming the rectangle
    ///   and the image size when the rectangle lies entirely outside the image.
    public func apply(to image: Image) throws -> Image {
        let x = arguments.int("x"), y = arguments.int("y")
        let width = arguments.int("width"), height = arguments.int("height")
        guard x < image.width, y < image.height else {
            throw DarkroomError.invalidArgument(
                name: "crop rectangle", value: "\(width)x\(height) at (\(x), \(y))",
                expected: "a rectangle overlapping the \(image.width)x\(image.height) image")
        }
        return PixelRegion.copy(
            of: image, columns: x..<min(image.width, x + width), rows: y..<min(image.height, y + height))
    }
}
