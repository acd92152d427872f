import DarkroomCore

// MARK: - ResamplingCost

/// Estimated work of the two pass orders, in units of one horizontal pixel-tap.
///
/// The per-tap costs were measured in a release build (`Benchmarks/resampler/README.md`):
/// both passes cost about the same per tap. Premultiplying a whole image before a
/// vertical-first resize writes and rereads twice its size in memory; premultiplying
/// row by row inside the horizontal pass stays in cache.
struct ResamplingCost {
    static let horizontalTap = 1.0
    static let verticalTap = 1.0
    static let premultiplyInCache = 1.0
    static let premultiplyWholeImage = 3.0

    let source: PixelSize
    let destination: PixelSize
    let premultiplies: Bool

    /// Horizontal pass over every source row, then vertical over every output column.
    func horizontalFirst(_ h: AxisWeights, _ v: AxisWeights) -> Double {
        Double(source.height) * Double(h.totalTaps) * Self.horizontalTap
            + Double(destination.width) * Double(v.totalTaps) * Self.verticalTap
            + (premultiplies ? Double(source.pixelCount) * Self.premultiplyInCache : 0)
    }

    /// Vertical pass over every source column, then horizontal over every output row.
    func verticalFirst(_ h: AxisWeights, _ v: AxisWeights) -> Double {
        Double(source.width) * Double(v.totalTaps) * Self.verticalTap
            + Double(destination.height) * Double(h.totalTaps) * Self.horizontalTap
            + (premultiplies ? Double(source.pixelCount) * Self.premultiplyWholeImage : 0)
    }
}
