import DarkroomCore

// MARK: - flop

/// `flop` — mirrors the image left↔right (ImageMagick's and sharp's `flop`), exactly: column
/// `x` becomes column `width − 1 − x`. Flopping twice gives the image back, so it is not
/// idempotent.
///
/// ```swift
/// let mirrored = try FlopFilter().apply(to: image) // identifier "flop"
/// ```
public struct FlopFilter: DeclaredFilter {
    public static let name = "flop"
    public static let summary = "Mirrors the image left↔right (the rightmost column becomes the leftmost)."
    public static let arguments: [FilterArgument] = []
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// The filter (it takes no arguments).
    public init() throws { self = try Self.make() }

    public func apply(to image: Image) throws -> Image {
        guard image.width > 1 else { return image }
        let width = image.width, height = image.height
        return image.pixels.withUnsafeBytes { raw in
            // Whole pixels move, so each is moved as one 32-bit word.
            let source = raw.bindMemory(to: UInt32.self)
            return Image(width: width, height: height, hasAlpha: image.hasAlpha) { buffer in
                let out = UnsafeMutableRawBufferPointer(buffer).bindMemory(to: UInt32.self)
                for y in 0..<height {
                    let row = y * width, last = row + width - 1
                    for x in 0..<width { out[row + x] = source[last - x] }
                }
            }
        }
    }
}
