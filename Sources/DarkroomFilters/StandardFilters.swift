import DarkroomCore

// MARK: - StandardFilters

/// The schemas of Darkroom's standard filters, for a registry to hold.
///
/// ```swift
/// var schemas = StandardFilters.schemas
/// schemas.append(StandardFilters.overlaySchema { path in try decode(path) })
/// let blur = try schemas.first { $0.name == "blur" }!.makeFilter([("sigma", .number(4))])
/// ```
public enum StandardFilters {
    /// Every standard filter that needs nothing but its arguments (all but `overlay`).
    public static let schemas: [FilterSchema] = color + convolution + shape + geometry + composition

    /// `grayscale`, `sepia`, `brightness`, `contrast`, `saturation`, `negate`, `tint`.
    public static let color: [FilterSchema] = [
        FilterSchema(GrayscaleFilter.self),
        FilterSchema(SepiaFilter.self),
        FilterSchema(BrightnessFilter.self),
        FilterSchema(ContrastFilter.self),
        FilterSchema(SaturationFilter.self),
        FilterSchema(NegateFilter.self),
        FilterSchema(TintFilter.self),
    ]

    /// `blur`, `sharpen`, `pixelate`.
    public static let convolution: [FilterSchema] = [
        FilterSchema(BlurFilter.self),
        FilterSchema(SharpenFilter.self),
        FilterSchema(PixelateFilter.self),
    ]

    /// `rounded-corners`, `circle`.
    public static let shape: [FilterSchema] = [
        FilterSchema(RoundedCornersFilter.self),
        FilterSchema(CircleFilter.self),
    ]

    /// `scale`, `aspect-fit`, `aspect-fill`, `crop`, `trim`, `rotate`, `flip`, `flop`, `pad`, `extend`.
    public static let geometry: [FilterSchema] = [
        FilterSchema(ScaleFilter.self),
        FilterSchema(AspectFitFilter.self),
        FilterSchema(AspectFillFilter.self),
        FilterSchema(CropFilter.self),
        FilterSchema(TrimFilter.self),
        FilterSchema(RotateFilter.self),
        FilterSchema(FlipFilter.self),
        FilterSchema(FlopFilter.self),
        FilterSchema(PadFilter.self),
        FilterSchema(ExtendFilter.self),
    ]

    /// `flatten` (`overlay` needs a loader: ``overlaySchema(loadingWith:)``).
    public static let composition: [FilterSchema] = [
        FilterSchema(FlattenFilter.self),
    ]

    /// The `overlay` schema, loading overlay files with `load` (the application's decoder).
    public static func overlaySchema(loadingWith load: @escaping @Sendable (String) throws -> Image) -> FilterSchema {
        OverlayFilter.schema(loadingWith: load)
    }
}
