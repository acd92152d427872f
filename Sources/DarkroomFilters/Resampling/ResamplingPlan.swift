import DarkroomCore

// MARK: - ResamplingPlan

/// What a resize does: which axes change, their weights, and which pass runs first.
struct ResamplingPlan: Sendable {
    let sourceSize: PixelSize
    let destinationSize: PixelSize
    /// `nil` when the width does not change.
    let horizontal: AxisWeights?
    /// `nil` when the height does not change.
    let vertical: AxisWeights?
    /// With both axes changing: run the vertical pass first (it is the cheaper order).
    let verticalFirst: Bool

    /// Relative cost of one pixel-tap in each pass, measured in a release build
    /// (see `Benchmarks/resampler/README.md`): the vertical pass runs on contiguous
    /// rows and vectorises across pixels, the horizontal one works pixel by pixel.
    static let horizontalTapCost = 1.0
    static let verticalTapCost = 0.5

    init(source: PixelSize, destination: PixelSize, kernel: ResamplingKernel) {
        sourceSize = source
        destinationSize = destination
        horizontal = source.width == destination.width
            ? nil : AxisWeights(kernel: kernel, sourceLength: source.width, destinationLength: destination.width)
        vertical = source.height == destination.height
            ? nil : AxisWeights(kernel: kernel, sourceLength: source.height, destinationLength: destination.height)
        if let horizontal, let vertical {
            verticalFirst = Self.verticalFirstCost(horizontal, vertical, source, destination)
                < Self.horizontalFirstCost(horizontal, vertical, source, destination)
        } else {
            verticalFirst = vertical != nil
        }
    }

    /// Horizontal pass over every source row, then vertical over every output column.
    static func horizontalFirstCost(
        _ h: AxisWeights, _ v: AxisWeights, _ source: PixelSize, _ destination: PixelSize
    ) -> Double {
        Double(source.height) * Double(h.totalTaps) * horizontalTapCost
            + Double(destination.width) * Double(v.totalTaps) * verticalTapCost
    }

    /// Vertical pass over every source column, then horizontal over every output row.
    static func verticalFirstCost(
        _ h: AxisWeights, _ v: AxisWeights, _ source: PixelSize, _ destination: PixelSize
    ) -> Double {
        Double(source.width) * Double(v.totalTaps) * verticalTapCost
            + Double(destination.height) * Double(h.totalTaps) * horizontalTapCost
    }

    // MARK: - Running

    /// Resamples `source` (RGBA values of type `Source`, `sourceSize`) into `destination`
    /// (`destinationSize`), clamping the final values to `lower...upper`.
    func run<Source: ResamplingSample, Destination: ResamplingSample>(
        source: UnsafePointer<Source>, destination: UnsafeMutablePointer<Destination>,
        lower: Int32, upper: Int32
    ) {
        let final = PassRounding(from: Source.self, to: Destination.self, lower: lower, upper: upper)
        switch (horizontal, vertical) {
        case (nil, nil):
            let count = sourceSize.width * sourceSize.height * 4
            for i in 0..<count { destination[i] = Destination(truncatingIfNeeded: source[i]) }

        case let (horizontal?, nil):
            resampleHorizontally(
                source: source, destination: destination, weights: horizontal,
                rows: 0..<sourceSize.height, rounding: final)

        case let (nil, vertical?):
            resampleVertically(
                source: source, destination: destination, width: sourceSize.width, weights: vertical,
                rows: 0..<destinationSize.height, rounding: final)

        case let (horizontal?, vertical?):
            let toIntermediate = PassRounding(
                from: Source.self, to: Int16.self, lower: Int32(Int16.min), upper: Int32(Int16.max))
            let fromIntermediate = PassRounding(from: Int16.self, to: Destination.self, lower: lower, upper: upper)
            let intermediateWidth = verticalFirst ? sourceSize.width : destinationSize.width
            let intermediateHeight = verticalFirst ? destinationSize.height : sourceSize.height
            let intermediate = UnsafeMutablePointer<Int16>.allocate(capacity: intermediateWidth * intermediateHeight * 4)
            defer { intermediate.deallocate() }

            if verticalFirst {
                resampleVertically(
                    source: source, destination: intermediate, width: sourceSize.width, weights: vertical,
                    rows: 0..<destinationSize.height, rounding: toIntermediate)
                resampleHorizontally(
                    source: intermediate, destination: destination, weights: horizontal,
                    rows: 0..<destinationSize.height, rounding: fromIntermediate)
            } else {
                resampleHorizontally(
                    source: source, destination: intermediate, weights: horizontal,
                    rows: 0..<sourceSize.height, rounding: toIntermediate)
                resampleVertically(
                    source: intermediate, destination: destination, width: destinationSize.width,
                    weights: vertical, rows: 0..<destinationSize.height, rounding: fromIntermediate)
            }
        }
    }
}
