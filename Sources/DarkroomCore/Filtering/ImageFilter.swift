// MARK: - ImageFilter

/// A pure transformation from one ``Image`` to another.
///
/// Contract:
/// - **Identifier.** ``identifier`` names the filter *and every argument that changes its
///   output*, canonically (`aspect-fill(height=128,width=128)`). Equal identifiers mean
///   equal output for equal input: the identifier is the filter's part of every cache key.
/// - **Purity.** `apply` depends only on the input image and the filter's arguments;
///   no I/O, no clocks, no randomness.
/// - **Threading.** Filters are immutable values; `apply` may run on many threads at once.
///   It is synchronous CPU work and does not check for cancellation part-way.
/// - **Errors.** Throws ``DarkroomError`` naming the filter and what was wrong.
/// - **Size hint.** ``sizeHint(forSourceSize:)`` lets the pipeline decode smaller
///   (shrink-on-load) when the filter will shrink the image anyway.
///   ``sizeHint(forSourceSize:residual:)`` is the same with a given margin over the output.
/// - **Smoothing.** ``smoothingSigma`` says how much fine detail the filter removes from every
///   channel anyway, so the filter before it may decode smaller (``FilterChain/sizeHint(forSourceSize:)``).
/// - **Output size.** ``outputSize(forInputSize:)`` predicts the output's size (to the last
///   pixel's rounding) when the size alone decides it, so a render the encoder could not
///   write is refused before decoding; `nil` (the default) when it depends on the pixels.
///
/// ```swift
/// struct Negate: ImageFilter {
///     var identifier: String { "negate" }
///     func apply(to image: Image) throws -> Image { /* … */ image }
/// }
/// ```
public protocol ImageFilter: Sendable {
    /// The canonical identifier: name plus sorted arguments.
    var identifier: String { get }

    /// Applies the filter.
    func apply(to image: Image) throws -> Image

    /// Given the full upright size of the source, the smallest input size this filter
    /// needs to produce its full-quality output, or `nil` when it needs every pixel.
    /// The default is `nil`.
    func sizeHint(forSourceSize size: PixelSize) -> PixelSize?

    /// ``sizeHint(forSourceSize:)`` for a filter that resamples, leaving its resampler
    /// `residual` times its output size (at least 1; ``ShrinkOnLoad/residualFactor`` is what
    /// ``sizeHint(forSourceSize:)`` leaves). The default ignores `residual` and returns
    /// ``sizeHint(forSourceSize:)``.
    func sizeHint(forSourceSize size: PixelSize, residual: Double) -> PixelSize?

    /// The standard deviation, in pixels of the filter's input, of the Gaussian low-pass the
    /// filter applies to every channel at least; `0` (the default) when it keeps fine detail.
    var smoothingSigma: Double { get }

    /// The size of the output for an input of `size`, or `nil` when the pixels decide it.
    /// The default is `nil`.
    func outputSize(forInputSize size: PixelSize) -> PixelSize?

    /// `true` when applying the filter twice in a row equals applying it once, so that
    /// consecutive duplicates in a chain can collapse. The default is `false`.
    var isIdempotent: Bool { get }
}

extension ImageFilter {
    public func sizeHint(forSourceSize size: PixelSize) -> PixelSize? { nil }

    public func sizeHint(forSourceSize size: PixelSize, residual: Double) -> PixelSize? {
        sizeHint(forSourceSize: size)
    }

    public var smoothingSigma: Double { 0 }

    public func outputSize(forInputSize size: PixelSize) -> PixelSize? { nil }

    public var isIdempotent: Bool { false }
}
