import DarkroomCore

// MARK: - aspect-fill

/// `aspect-fill(width, height, gravity, upscale, kernel)` — covers `width`×`height` and crops
/// to exactly that, like CSS `object-fit: cover`: the image is resized to the smallest size with
/// its aspect ratio covering the box (`PixelSize/filling(_:)`), once, with the named kernel
/// (as in ``ScaleFilter``), then the box is cut out of it at `gravity` (`center`, `north`,
/// `south`, `east`, `west`, `northeast`, `northwest`, `southeast`, `southwest`; default
/// `center`, which rounds left and up), or with `entropy` where the most detail is: the window
/// whose luma histogram has the highest Shannon entropy (`EntropyCrop`, as sharp's
/// `strategy.entropy`; a flat image is cropped in the middle).
///
/// With `upscale=false` the image is scaled by `min(1, fill factor)`: a large image is handled
/// as usual, while one that would have to be enlarged keeps its size and is only cropped to at
/// most `width`×`height` at the gravity — a 100×50 image in a 80×80 box becomes 80×50.
///
/// The crop is taken from the exact scaled size, so the kept pixels' neighbours are in the
/// filtering and the crop's edges are as sharp as its middle; only the kept region is
/// resampled (the same pixels as resizing and cropping, without the cropped-away work).
///
/// Output size: always `width`×`height` (with `upscale=false`, at most that), whatever size
/// the pipeline decoded at. Its size hint is the scaled size before the crop, never more than
/// the source. Idempotent.
///
/// ```swift
/// let avatar = try AspectFillFilter(width: 128, height: 128).apply(to: photo)
/// // identifier "aspect-fill(gravity=center,height=128,kernel=lanczos3,upscale=true,width=128)"
/// ```
public struct AspectFillFilter: DeclaredFilter {
    public static let name = "aspect-fill"
    public static let summary =
        "Resizes to cover width×height px and crops to exactly that at the gravity; upscale=false only crops a small image."
    public static let arguments: [FilterArgument] = ResizeArguments.box("output") + [
        FilterArgument(
            name: "gravity", kind: .choice(Gravity.names + [Self.entropyGravity]), default: .choice("center"),
            summary: "which part of the scaled image is kept (entropy: the part with the most detail)"),
        ResizeArguments.upscale, ResizeArguments.kernel,
    ]
    public static let isIdempotent = true

    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a side outside
    ///   1…16384 or an unknown gravity.
    public init(
        width: Int, height: Int, gravity: String = "center", upscale: Bool = true, kernel: ResamplingKernel = .lanczos3
    ) throws {
        self = try Self.make([
            ("width", .integer(width)), ("height", .integer(height)), ("gravity", .text(gravity)),
            ("upscale", .boolean(upscale)), ("kernel", .text(ResizeArguments.name(of: kernel))),
        ])
    }

    var box: PixelSize { PixelSize(width: arguments.int("width"), height: arguments.int("height")) }
    var upscale: Bool { arguments.bool("upscale") }
    var kernel: ResamplingKernel { ResizeArguments.resamplingKernel(named: arguments.string("kernel")) }
    /// The `gravity` that crops where the most detail is (``EntropyCrop``).
    static let entropyGravity = "entropy"

    public func apply(to image: Image) throws -> Image {
        let (scaled, kept) = ResizeSizing.filled(image.proportions, covering: box, upscale: upscale)
        let gravity = arguments.string("gravity")
        let (left, top) = gravity == Self.entropyGravity
            ? EntropyCrop.origin(in: image, scaled: scaled, kept: kept)
            : Gravity(named: gravity).origin(of: kept, in: scaled)
        // Only the kept region of the resize is made (see Resampler.resize(_:to:keeping:rows:kernel:)).
        return try Resampler.resize(
            image, to: scaled, keeping: left..<(left + kept.width), rows: top..<(top + kept.height), kernel: kernel)
    }

    public func outputSize(forInputSize size: PixelSize) -> PixelSize? {
        ResizeSizing.filled(size, covering: box, upscale: upscale).kept
    }

    /// The scaled size before the crop with the residual, clamped to the source.
    public func sizeHint(forSourceSize size: PixelSize) -> PixelSize? {
        sizeHint(forSourceSize: size, residual: ShrinkOnLoad.residualFactor)
    }

    public func sizeHint(forSourceSize size: PixelSize, residual: Double) -> PixelSize? {
        ResizeSizing.hint(ResizeSizing.filled(size, covering: box, upscale: upscale).scaled, source: size, residual: residual)
    }
}
