// MARK: - Seeded randomness

/// SplitMix64: the same sequence on every run, so a fuzz-style test's failure can be replayed.
///
/// ```swift
/// var random = SeededGenerator(seed: 7)
/// let width = Int.random(in: 1...64, using: &random)
/// ```
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
