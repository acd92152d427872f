import DarkroomCore

// MARK: - circle

/// `circle` — crops the centred square of side `min(width, height)` (an odd leftover pixel
/// goes to the right or bottom), then cuts it to the inscribed disc with an anti-aliased edge;
/// outside the disc is fully transparent. This is AlamofireImage's `imageRoundedIntoCircle()`.
/// The output always has alpha. Not idempotent: a second pass scales the edge alpha again.
///
/// ```swift
/// let avatar = try CircleFilter().apply(to: photo) // identifier "circle"
/// ```
public struct CircleFilter: DeclaredFilter {
    public static let name = "circle"
    public static let summary =
        "Crops the centred square of side min(width, height) and cuts it to a disc, anti-aliased; outside is transparent."
    public static let arguments: [FilterArgument] = []
    public static let isIdempotent = false

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// The filter (it takes no arguments).
    public init() throws { self = try Self.make() }

    public func apply(to image: Image) throws -> Image {
        let side = min(image.width, image.height)
        return RoundedRectMask.apply(to: Self.centredSquare(of: image, side: side), radius: Double(side) / 2)
    }

    /// The centred square: a side of `min(width, height)`.
    public func outputSize(forInputSize size: PixelSize) -> PixelSize? {
        let side = min(size.width, size.height)
        return PixelSize(width: side, height: side)
    }

    /// The centred `side`×`side` square (the image itself when it is already square).
    static func centredSquare(of image: Image, side: Int) -> Image {
        guard image.width != side || image.height != side else { return image }
        let left = (image.width - side) / 2, top = (image.height - side) / 2
        let rowBytes = side * 4
        return image.pixels.withUnsafeBufferPointer { source in
            Image(width: side, height: side, hasAlpha: image.hasAlpha) { out in
                for y in 0..<side {
                    (out.baseAddress! + y * rowBytes).initialize(
                        from: source.baseAddress! + ((top + y) * image.width + left) * 4, count: rowBytes)
                }
            }
        }
    }
}
