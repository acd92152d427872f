import DarkroomCore

// MARK: - trim

/// `trim(threshold)` — cuts away the borders that are the colour of the top-left pixel, as
/// sharp's `trim()`, imgproxy's `trim` and thumbor's `trim` do: the kept rectangle is the
/// smallest holding every pixel that differs from that colour by more than `threshold` in some
/// channel (alpha included). When the top-left pixel is transparent, every pixel whose alpha is
/// at most `threshold` counts as border, whatever its colour. An image that is all border is
/// left as it is. Rows are copied whole, so the kept pixels are exactly the source's.
///
/// Not idempotent (the trimmed image's corner may start another border), and it needs every
/// pixel to find the borders, so a chain starting with it decodes at full size.
///
/// ```swift
/// let tight = try TrimFilter(threshold: 10).apply(to: scan)   // identifier "trim(threshold=10)"
/// ```
public struct TrimFilter: DeclaredFilter {
    public static let name = "trim"
    public static let summary =
        "Cuts away the borders of the top-left pixel's colour (within threshold per channel; transparent borders too)."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "threshold", kind: .integer(0...255), default: .integer(10),
            summary: "how far (0…255 per channel) a pixel may be from the border colour and still be border"),
    ]
    public static let isIdempotent = false

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a threshold outside 0…255.
    public init(threshold: Int = 10) throws {
        self = try Self.make([("threshold", .integer(threshold))])
    }

    public func apply(to image: Image) throws -> Image {
        guard let (columns, rows) = Self.content(of: image, threshold: arguments.int("threshold")),
            columns.count < image.width || rows.count < image.height
        else { return image }
        return PixelRegion.copy(of: image, columns: columns, rows: rows)
    }

    // MARK: - Finding the content

    /// The columns and rows of the smallest rectangle holding every non-border pixel, or `nil`
    /// when every pixel is border.
    static func content(of image: Image, threshold: Int) -> (columns: Range<Int>, rows: Range<Int>)? {
        image.pixels.withUnsafeBufferPointer { pixels in
            let border = (Int(pixels[0]), Int(pixels[1]), Int(pixels[2]), Int(pixels[3]))
            let transparentBorder = image.hasAlpha && border.3 == 0
            func isContent(_ i: Int) -> Bool {
                if transparentBorder { return Int(pixels[i + 3]) > threshold }
                return abs(Int(pixels[i]) - border.0) > threshold || abs(Int(pixels[i + 1]) - border.1) > threshold
                    || abs(Int(pixels[i + 2]) - border.2) > threshold || abs(Int(pixels[i + 3]) - border.3) > threshold
            }
            func rowHasContent(_ y: Int) -> Bool {
                let row = y * image.width * 4
                for x in 0..<image.width where isContent(row + x * 4) { return true }
                return false
            }
            guard let top = (0..<image.height).first(where: rowHasContent) else { return nil }
            let bottom = (top..<image.height).reversed().first(where: rowHasContent) ?? top
            // Each row only needs looking at outside the columns already known to hold content.
            var left = image.width, right = -1
            for y in top...bottom {
                let row = y * image.width * 4
                var x = 0
                while x < left {
                    if isContent(row + x * 4) { left = x; break }
                    x += 1
                }
                x = image.width - 1
                while x > right {
                    if isContent(row + x * 4) { right = x; break }
                    x -= 1
                }
            }
            return (left..<(right + 1), top..<(bottom + 1))
        }
    }
}
