import DarkroomCore

// MARK: - aspect-fit

/// `aspect-fit(width, height, upscale, kernel)` — resizes to the largest size with the image's
/// aspect ratio that fits inside `width`×`height` (sides rounded to the nearest pixel, at least
/// 1), like CSS `object-fit: contain` without the bars. `kernel` as in ``ScaleFilter``.
///
/// One side may be left out (or 0): `aspect-fit(width=256)` is 256 px wide whatever the height,
/// as sharp's `resize({ width: 256 })` and vips' `--size 256x`. One of the two is required.
///
/// With `upscale=false` an image that already fits is returned unchanged (same pixels);
/// a larger one is shrunk as usual.
///
/// Output size: depends only on the arguments and the image's aspect ratio, so an image the
/// pipeline decoded smaller (shrink-on-load, at least the size hint) gives the same size, up
/// to the last pixel's rounding of a ratio the decoder rounded. Its size hint is the fitted
/// size, never more than the source. Idempotent.
///
/// ```swift
/// let preview = try AspectFitFilter(width: 256, height: 256).apply(to: photo) // 4000×3000 → 256×192
/// let banner = try AspectFitFilter(width: 1024).apply(to: photo)               // 4000×3000 → 1024×768
/// ```
public struct AspectFitFilter: DeclaredFilter {
    public static let name = "aspect-fit"
    public static let summary =
        "Resizes to the largest size with the image's aspect ratio inside width×height px; upscale=false leaves a fitting image as is."
    public static let arguments: [FilterArgument] =
        ResizeArguments.optionalBox("bounding box") + [ResizeArguments.upscale, ResizeArguments.kernel]
    public static let isIdempotent = true

    public let arguments: FilterArguments

    /// The box, a side left at 0 being `Int.max` (no limit).
    let box: PixelSize

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` when both sides are 0.
    public init(arguments: FilterArguments) throws {
        self.arguments = arguments
        box = try ResizeArguments.requireOneSide(arguments, of: Self.name)
    }

    /// - Parameters:
    ///   - width: the widest the result may be, 1…16384 px; 0 for any width.
    ///   - height: the tallest the result may be, 1…16384 px; 0 for any height.
    ///   - upscale: whether a smaller image is enlarged to fit (else it keeps its size).
    ///   - kernel: the resampling kernel.
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a side outside
    ///   0…16384, or both 0.
    public init(width: Int = 0, height: Int = 0, upscale: Bool = true, kernel: ResamplingKernel = .lanczos3) throws {
        self = try Self.make([
            ("width", .integer(width)), ("height", .integer(height)), ("upscale", .boolean(upscale)),
            ("kernel", .text(ResizeArguments.name(of: kernel))),
        ])
    }

    var upscale: Bool { arguments.bool("upscale") }
    var kernel: ResamplingKernel { ResizeArguments.resamplingKernel(named: arguments.string("kernel")) }

    public func apply(to image: Image) throws -> Image {
        try Resampler.resize(image, to: ResizeSizing.fitted(image.proportions, within: box, upscale: upscale), kernel: kernel)
    }

    public func outputSize(forInputSize size: PixelSize) -> PixelSize? {
        ResizeSizing.fitted(size, within: box, upscale: upscale)
    }

    /// The fitted size with the residual, clamped to the source.
    public func sizeHint(forSourceSize size: PixelSize) -> PixelSize? {
        sizeHint(forSourceSize: size, residual: ShrinkOnLoad.residualFactor)
    }

    public func sizeHint(forSourceSize size: PixelSize, residual: Double) -> PixelSize? {
        ResizeSizing.hint(ResizeSizing.fitted(size, within: box, upscale: upscale), source: size, residual: residual)
    }
}
