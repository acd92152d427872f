import DarkroomCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - GaussianKernel

/// The sampled, normalised weights of a 1-D Gaussian: `exp(−k² / 2σ²)` for `|k| ≤ radius`,
/// with `radius = ⌈3σ⌉`, divided by their sum so that a constant signal stays constant.
///
/// ```swift
/// let kernel = GaussianKernel(sigma: 4)
/// kernel.radius      // 12
/// kernel.weights[0]  // the centre weight; weights[k] is used at −k and +k
/// ```
struct GaussianKernel: Sendable, Equatable {
    let sigma: Double
    let radius: Int
    /// `weights[0]` is the centre; `weights[k]` the weight at distance `k` on either side.
    /// `weights[0] + 2 · Σ weights[1...]` is 1 (to `Float` precision).
    let weights: [Float]

    init(sigma: Double) {
        precondition(sigma > 0, "sigma must be positive")
        self.sigma = sigma
        radius = Int((3 * sigma).rounded(.up))
        let raw = (0...radius).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
        let total = raw[0] + 2 * raw.dropFirst().reduce(0, +)
        weights = raw.map { Float($0 / total) }
    }
}
