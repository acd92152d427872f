import DarkroomCore

// MARK: - FilterStep

/// One filter of a chain, written as a Swift value instead of a string: every standard filter
/// is a static member, so a chain reads like the `filters.d/` line it stands for.
///
/// A step is built through the filter's declaration (`DeclaredFilter/make(_:)`), so it gets the
/// same validation and the same `ImageFilter/identifier` (the cache key) as the string form;
/// an argument out of range is reported when the chain is built.
///
/// ```swift
/// let chain = try FilterChain(.aspectFill(width: 128, height: 128), .circle)
/// chain.identifier
/// // "aspect-fill(gravity=center,height=128,kernel=lanczos3,upscale=true,width=128)|circle"
/// let avatar = try photo.applying(.aspectFill(width: 128, height: 128), .circle)
/// ```
///
/// Contract: a step names exactly one filter; ``filter()`` returns it or throws the error its
/// declaration reported, every time the same.
public struct FilterStep: Sendable {
    private let made: Result<any ImageFilter, any Error>

    /// A step applying `filter` (a filter of your own module, or one built by hand).
    public init(_ filter: any ImageFilter) { made = .success(filter) }

    /// A step built by `make`; its error, if any, is kept until the chain is built.
    public init(making make: () throws -> any ImageFilter) {
        do { made = .success(try make()) } catch { made = .failure(error) }
    }

    /// The filter.
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for an argument its
    ///   declaration refused.
    public func filter() throws -> any ImageFilter { try made.get() }
}

// MARK: - Geometry

extension FilterStep {
    /// `scale`: exactly `width`×`height` (see ``ScaleFilter``).
    public static func scale(width: Int, height: Int, upscale: Bool = true, kernel: ResamplingKernel = .lanczos3) -> Self {
        Self { try ScaleFilter(width: width, height: height, upscale: upscale, kernel: kernel) }
    }

    /// `aspect-fit`: inside `width`×`height`, keeping the aspect ratio; 0 leaves a side free
    /// (see ``AspectFitFilter``).
    public static func aspectFit(width: Int = 0, height: Int = 0, upscale: Bool = true, kernel: ResamplingKernel = .lanczos3) -> Self {
        Self { try AspectFitFilter(width: width, height: height, upscale: upscale, kernel: kernel) }
    }

    /// `aspect-fill`: covers `width`×`height` and crops to it at `gravity` (see ``AspectFillFilter``).
    public static func aspectFill(
        width: Int, height: Int, gravity: String = "center", upscale: Bool = true, kernel: ResamplingKernel = .lanczos3
    ) -> Self {
        Self { try AspectFillFilter(width: width, height: height, gravity: gravity, upscale: upscale, kernel: kernel) }
    }

    /// `crop`: the `width`×`height` region at (`x`, `y`) (see ``CropFilter``).
    public static func crop(x: Int, y: Int, width: Int, height: Int) -> Self {
        Self { try CropFilter(x: x, y: y, width: width, height: height) }
    }

    /// `trim`: cuts away a border of the corner colour (see ``TrimFilter``).
    public static func trim(threshold: Int = 10) -> Self { Self { try TrimFilter(threshold: threshold) } }

    /// `rotate`: by `angle` degrees clockwise (see ``RotateFilter``).
    public static func rotate(angle: Double, background: RGBA = RGBA(r: 0, g: 0, b: 0, a: 0)) -> Self {
        Self { try RotateFilter(angle: angle, background: background) }
    }

    /// `flip`: upside down.
    public static var flip: Self { Self { try FlipFilter() } }

    /// `flop`: left to right.
    public static var flop: Self { Self { try FlopFilter() } }

    /// `pad`: onto a `width`×`height` canvas at `gravity` (see ``PadFilter``).
    public static func pad(
        width: Int, height: Int, gravity: String = "center", background: RGBA = RGBA(r: 0, g: 0, b: 0, a: 0)
    ) -> Self {
        Self { try PadFilter(width: width, height: height, gravity: gravity, background: background) }
    }

    /// `extend`: adds borders (see ``ExtendFilter``).
    public static func extend(
        top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0, background: RGBA = RGBA(r: 0, g: 0, b: 0, a: 0)
    ) -> Self {
        Self { try ExtendFilter(top: top, right: right, bottom: bottom, left: left, background: background) }
    }
}

// MARK: - Shape, colour, convolution, composition

extension FilterStep {
    /// `circle`: the centred square cut to a disc.
    public static var circle: Self { Self { try CircleFilter() } }

    /// `rounded-corners`: quarter circles of `radius` px.
    public static func roundedCorners(radius: Int = 16) -> Self { Self { try RoundedCornersFilter(radius: radius) } }

    /// `grayscale`.
    public static var grayscale: Self { Self { try GrayscaleFilter() } }

    /// `negate`.
    public static var negate: Self { Self { try NegateFilter() } }

    /// `sepia` at `intensity` (0…1).
    public static func sepia(intensity: Double = 1) -> Self { Self { try SepiaFilter(intensity: intensity) } }

    /// `brightness`: multiplies the colour by `factor` (0…4).
    public static func brightness(_ factor: Double) -> Self { Self { try BrightnessFilter(factor: factor) } }

    /// `contrast` by `factor` (0…4).
    public static func contrast(_ factor: Double) -> Self { Self { try ContrastFilter(factor: factor) } }

    /// `saturation` by `factor` (0…4).
    public static func saturation(_ factor: Double) -> Self { Self { try SaturationFilter(factor: factor) } }

    /// `tint` towards `color` (`"#ff8800"`, a CSS name) at `intensity`.
    public static func tint(_ color: String, intensity: Double = 1) -> Self {
        Self { try TintFilter(color: color, intensity: intensity) }
    }

    /// `blur`: a Gaussian blur of `sigma` px.
    public static func blur(sigma: Double = 2) -> Self { Self { try BlurFilter(sigma: sigma) } }

    /// `sharpen`: an unsharp mask (see ``SharpenFilter``).
    public static func sharpen(sigma: Double = 1, amount: Double = 1, threshold: Double = 0) -> Self {
        Self { try SharpenFilter(sigma: sigma, amount: amount, threshold: threshold) }
    }

    /// `pixelate` into `size`-px blocks.
    public static func pixelate(size: Int = 8) -> Self { Self { try PixelateFilter(size: size) } }

    /// `flatten`: onto an opaque `background`.
    public static func flatten(background: String = "#ffffff") -> Self { Self { try FlattenFilter(background: background) } }
}

// MARK: - Building chains

extension FilterChain {
    /// The chain of `first` and `rest`, in order.
    ///
    /// ```swift
    /// let chain = try FilterChain(.aspectFit(width: 256), .sharpen())
    /// ```
    /// - Throws: the first step's argument error.
    public init(_ first: FilterStep, _ rest: FilterStep...) throws {
        try self.init(steps: [first] + rest)
    }

    /// The chain of `steps`, in order (empty: no filter).
    /// - Throws: the first step's argument error.
    public init(steps: [FilterStep]) throws {
        self.init(try steps.map { try $0.filter() })
    }
}

// MARK: - Applying to an image

extension Image {
    /// This image with `first` and then each of `rest` applied.
    ///
    /// ```swift
    /// let thumbnail = try photo.applying(.aspectFit(width: 256, height: 256))
    /// ```
    /// - Throws: a step's argument error, or the filter's own.
    public func applying(_ first: FilterStep, _ rest: FilterStep...) throws -> Image {
        try FilterChain(steps: [first] + rest).apply(to: self)
    }
}
