import DarkroomCore

// MARK: - PosterizeFilter

/// Reduces each colour channel to `levels` evenly spaced values (alpha unchanged): a filter
/// the `darkroom` tool does not know, registered only by this test tool.
///
/// ```toml
/// [variants.poster]
/// filters = [ { filter = "posterize", levels = 2 } ]
/// ```
struct PosterizeFilter: DeclaredFilter {
    static let name = "posterize"
    static let summary = "Reduces each colour channel to a few evenly spaced levels."
    static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "levels", kind: .integer(2...255), default: .integer(4),
            summary: "how many values each channel keeps"),
    ]
    static let isIdempotent = true

    let arguments: FilterArguments

    init(arguments: FilterArguments) { self.arguments = arguments }

    func apply(to image: Image) throws -> Image {
        let steps = Double(arguments.int("levels") - 1)
        var table = [UInt8](repeating: 0, count: 256)
        for value in 0..<256 {
            table[value] = UInt8((Double(value) * steps / 255).rounded() * 255 / steps)
        }
        return image.pixels.withUnsafeBufferPointer { src in
            Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { dst in
                for i in stride(from: 0, to: src.count, by: 4) {
                    dst[i] = table[Int(src[i])]
                    dst[i + 1] = table[Int(src[i + 1])]
                    dst[i + 2] = table[Int(src[i + 2])]
                    dst[i + 3] = src[i + 3]
                }
            }
        }
    }
}
