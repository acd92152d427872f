import DarkroomCore

// MARK: - GaussianBlur

/// The Gaussian blur every convolution filter shares: a direct separable kernel of radius
/// ⌈3σ⌉ for small σ, Deriche's recursive filter (constant cost, closer still to the exact
/// Gaussian) from ``recursiveThreshold`` up. Colour is averaged premultiplied by alpha;
/// edges are clamped. An opaque input gives an opaque output.
///
/// ```swift
/// let soft = GaussianBlur.apply(to: image, sigma: 4)
/// ```
enum GaussianBlur {
    /// The σ from which the recursive filter is faster than the direct kernel (measured on a
    /// 1024×640 RGB image in a release build: 10.8 ms direct vs 9.8 ms recursive at σ = 6,
    /// 9.4 vs 11.5 at σ = 4; the recursive filter's cost stays near 9.5 ms for any σ).
    static let recursiveThreshold = 6.0

    static func apply(to image: Image, sigma: Double) -> Image {
        sigma >= recursiveThreshold
            ? RecursiveGaussian.blur(image, sigma: sigma)
            : SeparableGaussian.blur(image, kernel: GaussianKernel(sigma: sigma))
    }
}
