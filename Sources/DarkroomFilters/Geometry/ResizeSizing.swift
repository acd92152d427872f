import DarkroomCore

// MARK: - ResizeSizing

/// The output sizes of the resizing filters, computed in one place so that `apply` and
/// `sizeHint(forSourceSize:)` can never disagree.
///
/// ```swift
/// let source = PixelSize(width: 4000, height: 3000), box = PixelSize(width: 256, height: 256)
/// ResizeSizing.fitted(source, within: box, upscale: true)  // 256×192
/// ResizeSizing.filled(source, covering: box, upscale: true) // scaled 341×256, kept 256×256
/// ```
enum ResizeSizing {
    /// `scale`: the box itself, or with `upscale == false` each side clamped to the source's.
    static func scaled(_ source: PixelSize, to box: PixelSize, upscale: Bool) -> PixelSize {
        upscale ? box : PixelSize(width: min(box.width, source.width), height: min(box.height, source.height))
    }

    /// `aspect-fit`: the largest size with the source's aspect ratio inside the box (sides
    /// rounded to the nearest pixel, at least 1); with `upscale == false`, the source's own
    /// size when it already fits.
    static func fitted(_ source: PixelSize, within box: PixelSize, upscale: Bool) -> PixelSize {
        source.fitting(within: box, allowUpscaling: upscale)
    }

    /// `aspect-fill`: the size the source is resized to (`scaled`) and the size of the region
    /// then kept from it (`kept`, never larger than `scaled`).
    ///
    /// Normally `scaled` is the smallest size with the source's aspect ratio covering the box
    /// (``PixelSize/filling(_:)``) and `kept` is the box. With `upscale == false`, when covering
    /// would enlarge, the source keeps its size and `kept` is the box clipped to it.
    static func filled(
        _ source: PixelSize, covering box: PixelSize, upscale: Bool
    ) -> (scaled: PixelSize, kept: PixelSize) {
        let factor = max(Double(box.width) / Double(source.width), Double(box.height) / Double(source.height))
        if !upscale && factor > 1 {
            return (source, PixelSize(width: min(box.width, source.width), height: min(box.height, source.height)))
        }
        return (source.filling(box), box)
    }

    /// The decode hint for resampling `source` to `size`: ``ShrinkOnLoad`` leaves the
    /// resampler at least `residual` (1.75× unless given) to shrink, and never asks for more
    /// than the source has.
    static func hint(_ size: PixelSize, source: PixelSize, residual: Double = ShrinkOnLoad.residualFactor) -> PixelSize {
        ShrinkOnLoad.hint(forOutput: size, source: source, residual: residual)
    }
}
