import DarkroomCore

// MARK: - ResamplingPlan

/// What a resize does: which axes change, their weights, which pass runs first, and
/// whether alpha is premultiplied; ``run(source:destination:)`` does it.
struct ResamplingPlan: Sendable {
    let sourceSize: PixelSize
    let destinationSize: PixelSize
    /// `nil` when the width does not change.
    let horizontal: AxisWeights?
    /// `nil` when the height does not change.
    let vertical: AxisWeights?
    /// The source has alpha: filter premultiplied values.
    let premultiplies: Bool
    /// With both axes changing: run the vertical pass first (it is the cheaper order).
    let verticalFirst: Bool
    /// How passes split their rows across threads.
    let parallelism: RowParallelism

    init(
        source: PixelSize, destination: PixelSize, kernel: ResamplingKernel, premultiplies: Bool,
        parallelism: RowParallelism = .automatic, verticalFirst forcedOrder: Bool? = nil
    ) {
        self.parallelism = parallelism
        sourceSize = source
        destinationSize = destination
        self.premultiplies = premultiplies
        horizontal = source.width == destination.width
            ? nil : AxisWeights(kernel: kernel, sourceLength: source.width, destinationLength: destination.width)
        vertical = source.height == destination.height
            ? nil : AxisWeights(kernel: kernel, sourceLength: source.height, destinationLength: destination.height)
        if let forcedOrder, horizontal != nil, vertical != nil {
            verticalFirst = forcedOrder
        } else if let horizontal, let vertical {
            let cost = ResamplingCost(source: source, destination: destination, premultiplies: premultiplies)
            verticalFirst = cost.verticalFirst(horizontal, vertical) < cost.horizontalFirst(horizontal, vertical)
        } else {
            verticalFirst = vertical != nil
        }
    }

    // MARK: - Running

    /// Resizes straight-alpha RGBA8 `source` (`sourceSize`) into `destination`
    /// (`destinationSize`).
    func run(source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>) {
        guard premultiplies else {
            filter(source: source, destination: destination, lower: 0, upper: 255)
            return
        }
        let outputCount = destinationSize.width * destinationSize.height
        let filtered = UnsafeMutablePointer<Int16>.allocate(capacity: outputCount * 4)
        defer { filtered.deallocate() }
        // Premultiplied colours clamp to the full opaque range; un-premultiplying then
        // clamps anything brighter than its alpha.
        let upper = Int32(255 << Int16.fractionBits)

        if let horizontal, vertical == nil || !verticalFirst {
            // Horizontal first: premultiply a few rows at a time, in cache, as the pass reads them.
            if let vertical {
                let toIntermediate = PassRounding(
                    from: Int16.self, to: Int16.self, lower: Int32(Int16.min), upper: Int32(Int16.max))
                let intermediate = UnsafeMutablePointer<Int16>.allocate(
                    capacity: sourceSize.height * destinationSize.width * 4)
                defer { intermediate.deallocate() }
                premultiplyingHorizontalPass(source, intermediate, horizontal, rows: sourceSize.height, toIntermediate)
                verticalPass(
                    UnsafePointer(intermediate), filtered, vertical, width: destinationSize.width,
                    PassRounding(from: Int16.self, to: Int16.self, lower: 0, upper: upper))
            } else {
                premultiplyingHorizontalPass(
                    source, filtered, horizontal, rows: sourceSize.height,
                    PassRounding(from: Int16.self, to: Int16.self, lower: 0, upper: upper))
            }
        } else {
            // Vertical first (or only): the pass reads rows far apart, so premultiply everything first.
            let sourceCount = sourceSize.width * sourceSize.height
            let premultiplied = UnsafeMutablePointer<Int16>.allocate(capacity: sourceCount * 4)
            defer { premultiplied.deallocate() }
            premultiply(source, premultiplied, width: sourceSize.width, rows: sourceSize.height)
            filter(source: UnsafePointer(premultiplied), destination: filtered, lower: 0, upper: upper)
        }
        unpremultiply(UnsafePointer(filtered), destination, width: destinationSize.width, rows: destinationSize.height)
    }

    /// The separable filter from `Source` values to `Destination` values, clamping the
    /// final values to `lower...upper`; two axes go through an `Int16` intermediate.
    private func filter<Source: ResamplingSample, Destination: ResamplingSample>(
        source: UnsafePointer<Source>, destination: UnsafeMutablePointer<Destination>,
        lower: Int32, upper: Int32
    ) {
        let final = PassRounding(from: Source.self, to: Destination.self, lower: lower, upper: upper)
        switch (horizontal, vertical) {
        case (nil, nil):
            let count = sourceSize.width * sourceSize.height * 4
            for i in 0..<count { destination[i] = Destination(truncatingIfNeeded: source[i]) }

        case let (horizontal?, nil):
            horizontalPass(source, destination, horizontal, rows: sourceSize.height, final)

        case let (nil, vertical?):
            verticalPass(source, destination, vertical, width: sourceSize.width, final)

        case let (horizontal?, vertical?):
            let toIntermediate = PassRounding(
                from: Source.self, to: Int16.self, lower: Int32(Int16.min), upper: Int32(Int16.max))
            let fromIntermediate = PassRounding(from: Int16.self, to: Destination.self, lower: lower, upper: upper)
            let intermediateWidth = verticalFirst ? sourceSize.width : destinationSize.width
            let intermediateHeight = verticalFirst ? destinationSize.height : sourceSize.height
            let intermediate = UnsafeMutablePointer<Int16>.allocate(
                capacity: intermediateWidth * intermediateHeight * 4)
            defer { intermediate.deallocate() }

            if verticalFirst {
                verticalPass(source, intermediate, vertical, width: sourceSize.width, toIntermediate)
                horizontalPass(
                    UnsafePointer(intermediate), destination, horizontal, rows: destinationSize.height,
                    fromIntermediate)
            } else {
                horizontalPass(source, intermediate, horizontal, rows: sourceSize.height, toIntermediate)
                verticalPass(
                    UnsafePointer(intermediate), destination, vertical, width: destinationSize.width, fromIntermediate)
            }
        }
    }

    // MARK: - Passes in parallel bands
    //
    // Bands read shared buffers and write disjoint rows of the destination; every buffer
    // outlives the synchronous calls. Raw pointers are not `Sendable`, hence the
    // `nonisolated(unsafe)` copies.

    private func horizontalPass<Source: ResamplingSample, Destination: ResamplingSample>(
        _ source: UnsafePointer<Source>, _ destination: UnsafeMutablePointer<Destination>,
        _ weights: AxisWeights, rows: Int, _ rounding: PassRounding
    ) {
        nonisolated(unsafe) let source = source, destination = destination
        parallelism.forEachBand(rowCount: rows, work: rows * weights.totalTaps) { band in
            resampleHorizontally(
                source: source, destination: destination, weights: weights, rows: band, rounding: rounding)
        }
    }

    private func premultiplyingHorizontalPass(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<Int16>,
        _ weights: AxisWeights, rows: Int, _ rounding: PassRounding
    ) {
        nonisolated(unsafe) let source = source, destination = destination
        parallelism.forEachBand(rowCount: rows, work: rows * weights.totalTaps) { band in
            resampleHorizontallyPremultiplying(
                source: source, destination: destination, weights: weights, rows: band, rounding: rounding)
        }
    }

    private func verticalPass<Source: ResamplingSample, Destination: ResamplingSample>(
        _ source: UnsafePointer<Source>, _ destination: UnsafeMutablePointer<Destination>,
        _ weights: AxisWeights, width: Int, _ rounding: PassRounding
    ) {
        nonisolated(unsafe) let source = source, destination = destination
        parallelism.forEachBand(rowCount: weights.destinationLength, work: width * weights.totalTaps) { band in
            resampleVertically(
                source: source, destination: destination, width: width, weights: weights, rows: band,
                rounding: rounding)
        }
    }

    private func premultiply(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<Int16>, width: Int, rows: Int
    ) {
        nonisolated(unsafe) let source = source, destination = destination
        parallelism.forEachBand(rowCount: rows, work: rows * width, granularity: 1) { band in
            let offset = band.lowerBound * width * 4
            premultiplyForResampling(source + offset, into: destination + offset, pixelCount: band.count * width)
        }
    }

    private func unpremultiply(
        _ source: UnsafePointer<Int16>, _ destination: UnsafeMutablePointer<UInt8>, width: Int, rows: Int
    ) {
        nonisolated(unsafe) let source = source, destination = destination
        parallelism.forEachBand(rowCount: rows, work: rows * width, granularity: 1) { band in
            let offset = band.lowerBound * width * 4
            unpremultiplyAfterResampling(source + offset, into: destination + offset, pixelCount: band.count * width)
        }
    }
}

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
