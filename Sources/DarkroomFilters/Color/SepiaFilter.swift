import DarkroomCore

// MARK: - sepia

/// `sepia(intensity)` — the CSS `sepia()` colour matrix: `intensity` 1 (the default) is full
/// sepia, 0 leaves the image unchanged, values between mix the matrix with the identity
/// exactly as CSS does. Alpha is unchanged.
///
/// ```swift
/// let old = try SepiaFilter(intensity: 0.8).apply(to: image) // "sepia(intensity=0.8)"
/// ```
public struct SepiaFilter: DeclaredFilter {
    public static let name = "sepia"
    public static let summary = "Tones the image brown with the CSS sepia() matrix; alpha unchanged."
    public static let arguments: [FilterArgument] = [
        FilterArgument(
            name: "intensity", kind: .number(0...1), default: .number(1),
            summary: "how much sepia: 0 = unchanged, 1 = full CSS sepia(1)"),
    ]
    public static let isIdempotent = false
    public static let preservesSize = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` outside 0…1.
    public init(intensity: Double = 1) throws { self = try Self.make([("intensity", .number(intensity))]) }

    /// The full-strength CSS sepia matrix.
    static let full = ColorMatrix(rows: [
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
    ])

    var matrix: ColorMatrix {
        ColorMatrix.diagonal(scale: 1, offset: 0).mixed(with: Self.full, arguments.double("intensity"))
    }

    public func apply(to image: Image) throws -> Image { matrix.apply(to: image) }
}
