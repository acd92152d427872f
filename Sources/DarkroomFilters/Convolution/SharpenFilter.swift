import DarkroomCore

// MARK: - sharpen

/// `sharpen(sigma, amount, threshold)` — an unsharp mask: every colour channel moves away from
/// its Gaussian-blurred value, `c' = c + amount · (c − blur(c))`, clamped to 0…255, except where
/// `|c − blur(c)|` is below `threshold` levels (so fine noise and flat areas stay untouched).
/// `sigma` (px) sets how wide an edge is enhanced. Alpha is unchanged.
///
/// ```swift
/// let crisp = try SharpenFilter(sigma: 1, amount: 0.8).apply(to: image)
/// // identifier "sharpen(amount=0.8,sigma=1,threshold=0)"
/// ```
public struct SharpenFilter: DeclaredFilter {
    public static let name = "sharpen"
    public static let summary =
        "Unsharp mask: c + amount × (c − Gaussian blur of c), skipping differences below threshold; alpha unchanged."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "sigma", kind: .number(0.3...10), default: .number(1), unit: "px",
            summary: "standard deviation of the blur the image is compared with"),
        FilterArgument(
            name: "amount", kind: .number(0...10), default: .number(1),
            summary: "how far to push each channel away from the blur: 0 = unchanged, 1 = double the difference"),
        FilterArgument(
            name: "threshold", kind: .number(0...255), default: .number(0), unit: "levels",
            summary: "smallest difference from the blur (0…255) that is sharpened"),
    ]
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a value out of range.
    public init(sigma: Double = 1, amount: Double = 1, threshold: Double = 0) throws {
        self = try Self.make([("sigma", .number(sigma)), ("amount", .number(amount)), ("threshold", .number(threshold))])
    }

    public func apply(to image: Image) throws -> Image {
        let amount = Float(arguments.double("amount"))
        let threshold = Float(arguments.double("threshold"))
        let blurred = GaussianBlur.apply(to: image, sigma: arguments.double("sigma"))
        return image.pixels.withUnsafeBufferPointer { original in
            blurred.pixels.withUnsafeBufferPointer { soft in
                Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { out in
                    var i = 0
                    let count = original.count
                    while i < count {
                        if i & 3 == 3 {
                            out[i] = original[i]
                        } else {
                            let c = Float(original[i])
                            let difference = c - Float(soft[i])
                            out[i] = abs(difference) < threshold ? original[i] : roundedByte(c + amount * difference)
                        }
                        i += 1
                    }
                }
            }
        }
    }
}
