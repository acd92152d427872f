import DarkroomCore

// MARK: - scale

/// `scale(width, height, upscale, kernel)` — resizes to exactly `width`×`height` pixels,
/// ignoring the aspect ratio, with the ``Resampler`` and the named kernel (`lanczos3`,
/// `lanczos2`, `mitchell`, `catmull-rom`, `bilinear`, `box`; default `lanczos3`).
///
/// With `upscale=false` neither axis is ever enlarged: each side is clamped to the image's
/// own, so a 300×100 image scaled to 200×200 becomes 200×100.
///
/// Output size: always `width`×`height` (with `upscale=false`, `min(width, w)`×`min(height, h)`
/// of the full source), whatever size the pipeline decoded at. Its size hint is that size
/// clamped to the source, so shrink-on-load never changes the result's size. Idempotent.
///
/// ```swift
/// let thumb = try ScaleFilter(width: 64, height: 64).apply(to: photo)
/// // identifier "scale(height=64,kernel=lanczos3,upscale=true,width=64)"
/// ```
public struct ScaleFilter: DeclaredFilter {
    public static let name = "scale"
    public static let summary =
        "Resizes to exactly width×height px, ignoring the aspect ratio; upscale=false never enlarges either side."
    public static let arguments: [FilterArgument] =
        ResizeArguments.box("output") + [ResizeArguments.upscale, ResizeArguments.kernel]
    public static let isIdempotent = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a side outside 1…16384.
    public init(width: Int, height: Int, upscale: Bool = true, kernel: ResamplingKernel = .lanczos3) throws {
        self = try Self.make([
            ("width", .integer(width)), ("height", .integer(height)), ("upscale", .boolean(upscale)),
            ("kernel", .text(ResizeArguments.name(of: kernel))),
        ])
    }

    var box: PixelSize { PixelSize(width: arguments.int("width"), height: arguments.int("height")) }
    var upscale: Bool { arguments.bool("upscale") }
    var kernel: ResamplingKernel { ResizeArguments.resamplingKernel(named: arguments.string("kernel")) }

    public func apply(to image: Image) throws -> Image {
        try Resampler.resize(image, to: ResizeSizing.scaled(image.proportions, to: box, upscale: upscale), kernel: kernel)
    }

    public func outputSize(forInputSize size: PixelSize) -> PixelSize? {
        ResizeSizing.scaled(size, to: box, upscale: upscale)
    }

    /// The output size with the residual, clamped to the source.
    public func sizeHint(forSourceSize size: PixelSize) -> PixelSize? {
        sizeHint(forSourceSize: size, residual: ShrinkOnLoad.residualFactor)
    }

    public func sizeHint(forSourceSize size: PixelSize, residual: Double) -> PixelSize? {
        ResizeSizing.hint(box, source: size, residual: residual)
    }
}
