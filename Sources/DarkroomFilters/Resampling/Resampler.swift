import DarkroomCore

// MARK: - Resampler

/// Darkroom's resampling engine: a separable convolution resize with correct pixel-centre
/// geometry, area filtering when shrinking, and premultiplied alpha. The core of every
/// resize filter and of thumbnailing.
///
/// - Output pixel `i` samples the source at `(i + 0.5) · scale − 0.5` (no half-pixel
///   shift). Shrinking stretches the kernel by the scale factor, so every source pixel
///   contributes; enlarging interpolates with the kernel as is. Taps outside the image
///   are dropped and the rest renormalised, so edges keep their brightness.
/// - The axes run as two passes in the cheaper order: the first in fixed point (`Int16`
///   weights summing to exactly one) into a `Float` intermediate, the second in `Float`;
///   results are rounded (halves to even) and clamped to 0…255. An axis whose size does
///   not change is skipped. Large passes are split into row bands on every core; the
///   result does not depend on how many.
/// - Images with alpha are premultiplied before filtering and un-premultiplied after,
///   so the colour of transparent pixels never bleeds into their neighbours.
///   Opaque images (`hasAlpha == false`) skip that work.
///
/// Against ImageMagick's `-filter Lanczos -resize`, the Lanczos3 output differs by a PSNR
/// of about 51 dB (`Benchmarks/resampler/README.md`).
///
/// ```swift
/// let thumbnail = try Resampler.resize(photo, to: PixelSize(width: 256, height: 160))
/// let pixelArt = try Resampler.resize(icon, to: PixelSize(width: 64, height: 64), kernel: .box)
/// ```
public enum Resampler {
    /// Resizes `image` to exactly `size` with `kernel` (Lanczos3 unless told otherwise).
    /// Returns `image` itself when `size` equals its size.
    ///
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` when `size`
    ///   has a zero or negative side, or more pixels than `FilterOutputLimit/maxPixels`.
    public static func resize(
        _ image: Image, to size: PixelSize, kernel: ResamplingKernel = .lanczos3
    ) throws -> Image {
        guard size.width > 0, size.height > 0 else {
            throw DarkroomError.invalidArgument(
                name: "resize size", value: size.description, expected: "positive width and height")
        }
        if size == image.size { return image }
        try FilterOutputLimit.check(size, filter: "resize")

        // An axis of millions of pixels shrunk a million times is box-averaged first.
        var source = image
        let rowFactor = AxisBoxReduction.factor(source: image.height, destination: size.height)
        let columnFactor = AxisBoxReduction.factor(source: image.width, destination: size.width)
        if rowFactor > 1 { source = AxisBoxReduction.reduced(source, rowsBy: rowFactor) }
        if columnFactor > 1 { source = AxisBoxReduction.reduced(source, columnsBy: columnFactor) }
        if size == source.size { return source }

        let plan = ResamplingPlan(
            source: source.size, destination: size, kernel: kernel, premultiplies: source.hasAlpha)
        return run(plan, on: source)
    }

    /// The `columns` × `rows` region of `image` resized to `size`, made without the rest: the
    /// same pixels as resizing and then cropping, at the cost of the region alone, and within
    /// the output limit when only the region is (a 1280×800 photo filled into 16000×16 is a
    /// 16000×10000 resize cropped to 16000 × 16 rows).
    ///
    /// ```swift
    /// // The middle 100×100 of a 400×250 resize:
    /// let middle = try Resampler.resize(photo, to: PixelSize(width: 400, height: 250), keeping: 150..<250, rows: 75..<175)
    /// ```
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` when `size` has a
    ///   zero or negative side, the region is empty or not inside it, or the region has more
    ///   pixels than `FilterOutputLimit/maxPixels`.
    public static func resize(
        _ image: Image, to size: PixelSize, keeping columns: Range<Int>, rows: Range<Int>, kernel: ResamplingKernel = .lanczos3
    ) throws -> Image {
        guard size.width > 0, size.height > 0 else {
            throw DarkroomError.invalidArgument(
                name: "resize size", value: size.description, expected: "positive width and height")
        }
        guard !columns.isEmpty, !rows.isEmpty, columns.lowerBound >= 0, rows.lowerBound >= 0,
            columns.upperBound <= size.width, rows.upperBound <= size.height
        else {
            throw DarkroomError.invalidArgument(
                name: "resize region", value: "columns \(columns), rows \(rows)", expected: "a non-empty region inside \(size)")
        }
        let kept = PixelSize(width: columns.count, height: rows.count)
        if size == image.size && kept == size { return image }
        try FilterOutputLimit.check(kept, filter: "resize")
        // An axis that keeps its length is cropped in the source; only changing axes are
        // resampled, over their window.
        var source = image, windowColumns = columns, windowRows = rows, scaled = size
        if size.width == image.width || size.height == image.height {
            let sourceColumns = size.width == image.width ? columns : 0..<image.width
            let sourceRows = size.height == image.height ? rows : 0..<image.height
            source = PixelRegion.copy(of: image, columns: sourceColumns, rows: sourceRows)
            if size.width == image.width { (windowColumns, scaled.width) = (0..<kept.width, kept.width) }
            if size.height == image.height { (windowRows, scaled.height) = (0..<kept.height, kept.height) }
            if scaled == source.size { return source }
        }
        let plan = ResamplingPlan(
            source: source.size, destination: scaled, kernel: kernel, premultiplies: source.hasAlpha,
            window: (windowColumns, windowRows))
        return run(plan, on: source)
    }

    private static func run(_ plan: ResamplingPlan, on image: Image) -> Image {
        let size = plan.destinationSize
        return image.pixels.withUnsafeBufferPointer { source in
            Image(width: size.width, height: size.height, hasAlpha: image.hasAlpha) { output in
                plan.run(source: source.baseAddress!, destination: output.baseAddress!)
            }
        }
    }
}
