import DarkroomCore

// MARK: - Resampler

/// Darkroom's resampling engine: a separable, fixed-point convolution resize with
/// correct pixel-centre geometry, area filtering when shrinking, and premultiplied alpha.
///
/// - Output pixel `i` samples the source at `(i + 0.5) · scale − 0.5` (no half-pixel
///   shift). Shrinking stretches the kernel by the scale factor, so every source
///   pixel contributes; enlarging interpolates with the kernel as is.
/// - The two axes run as separate passes through an `Int16` intermediate (six
///   fraction bits, so no precision is lost between them), in the cheaper order;
///   an axis whose size does not change is skipped.
/// - Images with alpha are premultiplied before filtering and un-premultiplied after,
///   so the colour of transparent pixels never bleeds into their neighbours.
///   Opaque images (`hasAlpha == false`) skip that work.
///
/// ```swift
/// let thumbnail = try Resampler.resize(photo, to: PixelSize(width: 256, height: 160))
/// let pixelArt = try Resampler.resize(icon, to: PixelSize(width: 64, height: 64), kernel: .box)
/// ```
public enum Resampler {
    /// Resizes `image` to exactly `size` with `kernel` (Lanczos3 unless told otherwise).
    /// Returns `image` itself when `size` equals its size.
    ///
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` when `size`
    ///   has a zero or negative side, or is too large to allocate.
    public static func resize(
        _ image: Image, to size: PixelSize, kernel: ResamplingKernel = .default
    ) throws -> Image {
        guard size.width > 0, size.height > 0 else {
            throw DarkroomError.invalidArgument(
                name: "resize size", value: size.description, expected: "positive width and height")
        }
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= Int.max / 16 else {
            throw DarkroomError.invalidArgument(
                name: "resize size", value: size.description, expected: "a size whose pixels fit in memory")
        }
        if size == image.size { return image }

        let plan = ResamplingPlan(source: image.size, destination: size, kernel: kernel)
        return image.hasAlpha ? resizePremultiplied(image, plan: plan) : resizeOpaque(image, plan: plan)
    }

    // MARK: - Opaque images

    /// Filters the bytes directly: every channel, alpha included (it is 255 everywhere,
    /// and weights summing to exactly one keep it 255).
    private static func resizeOpaque(_ image: Image, plan: ResamplingPlan) -> Image {
        image.pixels.withUnsafeBufferPointer { source in
            Image(width: plan.destinationSize.width, height: plan.destinationSize.height, hasAlpha: false) { output in
                plan.run(source: source.baseAddress!, destination: output.baseAddress!, lower: 0, upper: 255)
            }
        }
    }

    // MARK: - Images with alpha

    /// Premultiplies into `Int16`, filters, and un-premultiplies into the output bytes.
    private static func resizePremultiplied(_ image: Image, plan: ResamplingPlan) -> Image {
        let sourceCount = image.width * image.height
        let outputCount = plan.destinationSize.width * plan.destinationSize.height
        let premultiplied = UnsafeMutablePointer<Int16>.allocate(capacity: sourceCount * 4)
        defer { premultiplied.deallocate() }
        let filtered = UnsafeMutablePointer<Int16>.allocate(capacity: outputCount * 4)
        defer { filtered.deallocate() }

        image.pixels.withUnsafeBufferPointer { source in
            premultiplyForResampling(source.baseAddress!, into: premultiplied, pixelCount: sourceCount)
        }
        // Premultiplied colours are clamped to the full opaque range; un-premultiplying
        // clamps anything brighter than its alpha.
        plan.run(
            source: UnsafePointer(premultiplied), destination: filtered,
            lower: 0, upper: Int32(255 << Int16.fractionBits))
        return Image(width: plan.destinationSize.width, height: plan.destinationSize.height, hasAlpha: true) { output in
            unpremultiplyAfterResampling(filtered, into: output.baseAddress!, pixelCount: outputCount)
        }
    }
}
