// MARK: - ShrinkOnLoad

/// How small a source may be decoded before it is resampled to its final size.
///
/// Decoding at a reduced DCT scale averages 8×8, 4×4 or 2×2 blocks — a box filter. When the
/// resampler is then left too little to shrink, that box filter shows as softness (a JPEG 1/8
/// decode followed by a 1.25× Lanczos3 shrink scores 2–3 dB below a Lanczos3 resize of the full
/// image; with 1.8× left it is within 1 dB of libvips). So a resize asks for at least
/// ``residualFactor``× its output size, like libvips's thumbnail and Pillow's `reducing_gap`.
///
/// ```swift
/// ShrinkOnLoad.hint(forOutput: PixelSize(width: 256, height: 160), source: PixelSize(width: 2560, height: 1600))
/// // 448×280: a JPEG decoder picks 1/4 (640×400), not 1/8 (320×200)
/// ```
public enum ShrinkOnLoad {
    /// How many times its output size a resize wants its input to be, at least. Measured with
    /// `Benchmarks/peers.sh`: 1.25× fails the "within 1 dB of libvips" rule, 1.8× passes, and
    /// 2× costs a slow 1/4 decode of large progressive JPEGs that 1/8 serves as well.
    public static let residualFactor = 1.75

    /// The smoothing (a Gaussian's σ in output pixels) after a resize from which the resize needs
    /// no residual. The residual protects detail near the output's resolution from the aliasing
    /// of a DCT-scaled or box-reduced decode; a Gaussian of σ = 1 keeps under 0.7 % of the
    /// amplitude at the output's Nyquist frequency and 29 % at half of it, so what the residual
    /// would protect is blurred away. (T5, fit 1024 then blur σ = 4: the 1/2 decode instead of
    /// the full one, Benchmarks/README.md, "Peers", session 36.)
    public static let smoothingWithoutResidual = 1.0

    /// The decode size hint for producing `output` from `source`: `residual × output`
    /// (rounded up; ``residualFactor`` unless given), never more than the source on either axis.
    public static func hint(forOutput output: PixelSize, source: PixelSize, residual: Double = residualFactor) -> PixelSize {
        let residual = max(1, residual)
        return PixelSize(
            width: min(source.width, Int((Double(output.width) * residual).rounded(.up))),
            height: min(source.height, Int((Double(output.height) * residual).rounded(.up))))
    }
}
