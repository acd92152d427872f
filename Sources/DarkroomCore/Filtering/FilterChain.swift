// MARK: - FilterChain

/// An ordered list of filters applied one after another — a variant's multi-pass chain.
///
/// Its ``identifier`` joins the filters' identifiers with `|`, a character no filter
/// identifier can contain, so two chains have equal identifiers exactly when they apply
/// equal filters in the same order. Consecutive duplicates of idempotent filters collapse
/// when the chain is built, so `grayscale|grayscale` and `grayscale` are one chain.
///
/// ```swift
/// let chain = FilterChain([fill, circle])
/// chain.identifier          // "aspect-fill(gravity=center,height=128,width=128)|circle"
/// chain.prefixIdentifiers   // ["aspect-fill(…)", "aspect-fill(…)|circle"]
/// let out = try chain.apply(to: image)
/// ```
public struct FilterChain: Sendable {
    /// The separator between filter identifiers.
    public static let separator = "|"

    /// The filters in the order they are applied, consecutive duplicates of idempotent filters
    /// already collapsed.
    public let filters: [any ImageFilter]

    /// Builds a chain, collapsing consecutive duplicates of idempotent filters.
    public init(_ filters: [any ImageFilter]) {
        var kept: [any ImageFilter] = []
        for filter in filters {
            if let last = kept.last, last.isIdempotent, last.identifier == filter.identifier { continue }
            kept.append(filter)
        }
        self.filters = kept
    }

    /// An empty chain (the image unchanged).
    public static let empty = FilterChain([])

    /// Whether the chain has no filters (it leaves the image unchanged).
    public var isEmpty: Bool { filters.isEmpty }

    /// The filters' identifiers joined by ``separator``; `""` for the empty chain.
    public var identifier: String { filters.map(\.identifier).joined(separator: Self.separator) }

    /// The identifier of every non-empty prefix, shortest first; the last is ``identifier``.
    public var prefixIdentifiers: [String] {
        var result: [String] = []
        var running = ""
        for filter in filters {
            running = running.isEmpty ? filter.identifier : running + Self.separator + filter.identifier
            result.append(running)
        }
        return result
    }

    /// This chain followed by `other` (e.g. a base variant's chain, then its own filters).
    public func appending(_ other: FilterChain) -> FilterChain {
        FilterChain(filters + other.filters)
    }

    /// Applies every filter in order, to every frame of an animated image.
    public func apply(to image: Image) throws -> Image {
        try filters.reduce(image) { try $1.applyToEveryFrame(of: $0) }
    }

    /// The size of the chain's output for a source of `size`; `nil` when a filter's output
    /// depends on the pixels (``ImageFilter/outputSize(forInputSize:)``).
    public func outputSize(forSourceSize size: PixelSize) -> PixelSize? {
        var size = size
        for filter in filters {
            guard let next = filter.outputSize(forInputSize: size) else { return nil }
            size = next
        }
        return size
    }

    /// The size hint of the chain's first filter for a source of `size`: the smallest decode
    /// size that still gives full-quality output (`nil` = decode at full size).
    ///
    /// When the second filter smooths by at least ``ShrinkOnLoad/smoothingWithoutResidual``
    /// (a blur), the first is asked for its hint with no residual
    /// (``ImageFilter/sizeHint(forSourceSize:residual:)`` with 1): the detail the residual keeps
    /// is blurred away right after.
    ///
    /// ```swift
    /// let source = PixelSize(width: 2560, height: 1600)
    /// try FilterChain([AspectFitFilter(width: 1024)]).sizeHint(forSourceSize: source)                          // 1792×1120
    /// try FilterChain([AspectFitFilter(width: 1024), BlurFilter(sigma: 4)]).sizeHint(forSourceSize: source)    // 1024×640
    /// ```
    public func sizeHint(forSourceSize size: PixelSize) -> PixelSize? {
        guard let first = filters.first else { return nil }
        if filters.count > 1, filters[1].smoothingSigma >= ShrinkOnLoad.smoothingWithoutResidual {
            return first.sizeHint(forSourceSize: size, residual: 1)
        }
        return first.sizeHint(forSourceSize: size)
    }
}

// MARK: - Pixel limit

extension FilterChain {
    /// Refuses, before anything is decoded, a chain one of whose filters would make more than
    /// `maxPixels` pixels from a source of `size`: each step whose size the filters predict
    /// (``ImageFilter/outputSize(forInputSize:)``) is checked, up to the first the pixels decide
    /// (the renderers check those as they run, ``ImageFilter/applyToEveryFrame(of:maxPixels:)``).
    ///
    /// ```swift
    /// try FilterChain([AspectFit(width: 9_166)]).checkOutputSizes(forSourceSize: PixelSize(width: 24, height: 16), maxPixels: 262_144)
    /// // throws: invalid aspect-fit output '9166×6111 (56 megapixels)': expected at most 262144 pixels (max-pixels)
    /// ```
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` naming the filter.
    public func checkOutputSizes(forSourceSize size: PixelSize, frames: Int = 1, maxPixels: Int) throws {
        var size = size
        for filter in filters {
            guard let next = filter.outputSize(forInputSize: size) else { return }
            try FilterOutputLimit.check(next, frames: frames, filter: filter.outputLimitName, maxPixels: maxPixels)
            size = next
        }
    }
}
