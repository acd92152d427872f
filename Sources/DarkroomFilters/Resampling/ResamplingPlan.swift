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

    /// A resize of `source` to `destination`; with `window`, only those columns and rows of
    /// it are made (the plan's ``destinationSize`` is then the window's size).
    init(
        source: PixelSize, destination scaled: PixelSize, kernel: ResamplingKernel, premultiplies: Bool,
        window: (columns: Range<Int>, rows: Range<Int>)? = nil,
        parallelism: RowParallelism = .automatic, verticalFirst forcedOrder: Bool? = nil
    ) {
        let columns = window?.columns ?? 0..<scaled.width, rows = window?.rows ?? 0..<scaled.height
        let destination = PixelSize(width: columns.count, height: rows.count)
        self.parallelism = parallelism
        sourceSize = source
        destinationSize = destination
        self.premultiplies = premultiplies
        // A window on an axis that keeps its length is a crop of the source, not a pass
        // (Resampler crops first): an identity pass would round differently.
        precondition(source.width != scaled.width || columns == 0..<scaled.width)
        precondition(source.height != scaled.height || rows == 0..<scaled.height)
        horizontal = source.width == scaled.width
            ? nil : AxisWeights(kernel: kernel, sourceLength: source.width, destinationLength: scaled.width, window: columns)
        vertical = source.height == scaled.height
            ? nil : AxisWeights(kernel: kernel, sourceLength: source.height, destinationLength: scaled.height, window: rows)
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
    ///
    /// One axis: a single fixed-point pass. Two axes: a fixed-point first pass into a
    /// `Float` intermediate, then a `Float` pass that rounds (and un-premultiplies), streamed
    /// through a few rows at a time (see ResamplingPlan+TwoAxes.swift).
    /// With alpha, values are premultiplied first: row by row inside a horizontal first
    /// pass, or for the whole image before a vertical one.
    func run(source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>) {
        switch (horizontal, vertical, premultiplies) {
        case (nil, nil, _):
            destination.update(from: source, count: sourceSize.pixelCount * 4)

        case let (horizontal?, nil, false):
            horizontalPass(
                source, destination, horizontal, rows: sourceSize.height,
                PassRounding(from: UInt8.self, to: UInt8.self, lower: 0, upper: 255))

        case let (nil, vertical?, false):
            verticalPass(
                source, destination, vertical, width: sourceSize.width,
                PassRounding(from: UInt8.self, to: UInt8.self, lower: 0, upper: 255))

        case let (horizontal?, vertical?, false):
            if verticalFirst {
                verticalThenHorizontal(source, destination, vertical, horizontal, output: ClampedOutput.self)
            } else {
                horizontalThenVertical(
                    source, destination, horizontal, vertical, premultiplying: false, output: ClampedOutput.self)
            }

        case let (horizontal?, vertical?, true) where !verticalFirst:
            horizontalThenVertical(
                source, destination, horizontal, vertical, premultiplying: true, output: UnpremultipliedOutput.self)

        case let (horizontal?, nil, true):
            // Premultiplied colours clamp to the full opaque range; un-premultiplying then
            // clamps anything brighter than its alpha.
            let filtered = UnsafeMutablePointer<Int16>.allocate(capacity: destinationSize.pixelCount * 4)
            defer { filtered.deallocate() }
            premultiplyingHorizontalPass(
                source, filtered, horizontal, rows: sourceSize.height,
                PassRounding(from: Int16.self, to: Int16.self, lower: 0, upper: Int32(255 << Int16.fractionBits)))
            unpremultiply(
                UnsafePointer(filtered), destination, width: destinationSize.width, rows: destinationSize.height)

        case let (_, vertical?, true):
            // Vertical first or only: that pass reads rows far apart, so premultiply everything first.
            let premultiplied = UnsafeMutablePointer<Int16>.allocate(capacity: sourceSize.pixelCount * 4)
            defer { premultiplied.deallocate() }
            premultiply(source, premultiplied, width: sourceSize.width, rows: sourceSize.height)
            if let horizontal {
                verticalThenHorizontal(
                    UnsafePointer(premultiplied), destination, vertical, horizontal, output: UnpremultipliedOutput.self)
            } else {
                let filtered = UnsafeMutablePointer<Int16>.allocate(capacity: destinationSize.pixelCount * 4)
                defer { filtered.deallocate() }
                verticalPass(
                    UnsafePointer(premultiplied), filtered, vertical, width: sourceSize.width,
                    PassRounding(from: Int16.self, to: Int16.self, lower: 0, upper: Int32(255 << Int16.fractionBits)))
                unpremultiply(
                    UnsafePointer(filtered), destination, width: destinationSize.width, rows: destinationSize.height)
            }
        }
    }

    // MARK: - Passes in parallel bands
    //
    // Bands read shared buffers and write disjoint rows of the destination; every buffer
    // outlives the synchronous calls. Raw pointers are not `Sendable`, hence the
    // `nonisolated(unsafe)` copies.

    private func horizontalPass<Source: ResamplingSource, Destination: ResamplingDestination>(
        _ source: UnsafePointer<Source>, _ destination: UnsafeMutablePointer<Destination>,
        _ weights: AxisWeights, rows: Int, _ rounding: PassRounding
    ) {
        nonisolated(unsafe) let source = source, destination = destination
        parallelism.forEachBand(rowCount: rows, work: rows * weights.totalTaps) { band in
            resampleHorizontally(
                source: source, destination: destination, weights: weights, rows: band, rounding: rounding)
        }
    }

    private func premultiplyingHorizontalPass<Destination: ResamplingDestination>(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<Destination>,
        _ weights: AxisWeights, rows: Int, _ rounding: PassRounding
    ) {
        nonisolated(unsafe) let source = source, destination = destination
        parallelism.forEachBand(rowCount: rows, work: rows * weights.totalTaps) { band in
            resampleHorizontallyPremultiplying(
                source: source, destination: destination, weights: weights, rows: band, rounding: rounding)
        }
    }

    private func verticalPass<Source: ResamplingSource, Destination: ResamplingDestination>(
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
